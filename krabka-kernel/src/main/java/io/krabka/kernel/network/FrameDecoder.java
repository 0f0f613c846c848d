package io.krabka.kernel.network;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.ByteToMessageDecoder;
import java.nio.ByteBuffer;
import java.util.concurrent.RejectedExecutionException;

/**
 * Cuts the byte stream into request frames: an int32 size, then that many bytes. A size below 0 or above
 * {@code socket.request.max.bytes} closes the connection before anything is allocated for it. The declared size is
 * reserved in the broker's {@link RequestBudget} when the size is read, but memory grows only with the bytes that
 * arrive. A complete frame is copied once into a heap buffer and passed on as a {@link ByteBuffer}: the request, and
 * the records its body shares bytes with, then live as long as their handler keeps them, with no pooled memory to
 * give back (Kafka's requests are heap buffers too). Frames are passed on only while the {@link ReadGate} is open;
 * the rest stay buffered until it opens again. Until a SASL connection has authenticated, frames are bounded by {@code
 * sasl.server.max.receive.size} as well, as Kafka bounds them.
 */
final class FrameDecoder extends ChannelInboundHandlerAdapter {

    private static final System.Logger LOG = System.getLogger(FrameDecoder.class.getName());

    private final int authenticatedMaxSize;
    private int maxSize;
    private final RequestBudget budget;
    private final ReadGate gate;
    private ByteBuf cumulation;
    private int frameSize = -1;
    private boolean reserved;
    private boolean stopped;

    /**
     * @param maxSize                  {@code socket.request.max.bytes}
     * @param maxSizeUntilAuthenticated the bound until {@link #authenticated()}: {@code maxSize} where there is no
     *                                  authentication
     */
    FrameDecoder(int maxSize, int maxSizeUntilAuthenticated, RequestBudget budget, ReadGate gate) {
        this.authenticatedMaxSize = maxSize;
        this.maxSize = Math.min(maxSize, maxSizeUntilAuthenticated);
        this.budget = budget;
        this.gate = gate;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf in = (ByteBuf) msg;
        if (stopped) {
            in.release();
            return;
        }
        cumulation = cumulation == null
                ? in
                : ByteToMessageDecoder.COMPOSITE_CUMULATOR.cumulate(ctx.alloc(), cumulation, in);
        decode(ctx);
    }

    /** Lifts the bound of frames before authentication. */
    void authenticated() {
        maxSize = authenticatedMaxSize;
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt == ReadGate.OPENED && cumulation != null && !stopped) {
            decode(ctx);
        }
        ctx.fireUserEventTriggered(evt);
    }

    private void decode(ChannelHandlerContext ctx) {
        while (gate.isOpen() && !stopped && cumulation != null) {
            if (frameSize < 0) {
                if (cumulation.readableBytes() < Integer.BYTES) {
                    break;
                }
                int size = cumulation.readInt();
                InvalidReceiveException invalid = InvalidReceiveException.check(size, maxSize);
                if (invalid != null) {
                    fail(ctx, invalid);
                    return;
                }
                frameSize = size;
            }
            if (!reserved) {
                reserved = budget.tryReserve(frameSize, () -> wake(ctx));
                if (!reserved) {
                    gate.close(ReadGate.Reason.BUDGET);
                    break;
                }
            }
            if (cumulation.readableBytes() < frameSize) {
                break;
            }
            byte[] frame = new byte[frameSize];
            cumulation.readBytes(frame);
            frameSize = -1;
            reserved = false;
            ctx.fireChannelRead(ByteBuffer.wrap(frame));
        }
        if (cumulation != null && !cumulation.isReadable()) {
            cumulation.release();
            cumulation = null;
        } else if (cumulation != null) {
            cumulation.discardSomeReadBytes();
        }
    }

    /** Reopens the gate on the connection's event loop; runs on the thread that released budget. */
    private void wake(ChannelHandlerContext ctx) {
        try {
            ctx.executor().execute(() -> gate.open(ReadGate.Reason.BUDGET));
        } catch (RejectedExecutionException e) {
            // The event loop is shutting down: nothing left to read.
        }
    }

    private void fail(ChannelHandlerContext ctx, InvalidReceiveException e) {
        LOG.log(
                System.Logger.Level.INFO,
                "Closing connection from " + ctx.channel().remoteAddress() + ": " + e.getMessage());
        freeBuffered();
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        freeBuffered();
        ctx.fireChannelInactive();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        freeBuffered();
    }

    /** Stops decoding and frees the bytes of frames not yet passed on and their reservation. */
    private void freeBuffered() {
        stopped = true;
        if (cumulation != null) {
            cumulation.release();
            cumulation = null;
        }
        if (reserved) {
            reserved = false;
            budget.release(frameSize);
        }
        frameSize = -1;
    }
}
