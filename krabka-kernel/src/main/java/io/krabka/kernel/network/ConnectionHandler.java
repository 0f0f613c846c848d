package io.krabka.kernel.network;

import io.krabka.kernel.security.ListenerTls;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.timeout.IdleStateEvent;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.security.auth.KafkaPrincipal;

/**
 * One connection's requests: parses each frame, hands the requests to their handlers one at a time in arrival
 * order (so a producer's pipelined batches are appended in order), and writes the responses strictly in request
 * order however the handlers complete. Up to {@code maxInFlight} requests may be pipelined; past that, or while
 * responses wait for the socket, the connection stops reading. On a SASL listener its {@link SaslAuthenticator}
 * decides each request's fate until the client has authenticated: nothing but ApiVersions and the authentication
 * reaches a handler before that. On an SSL listener the requests carry the client certificate's principal. All
 * methods but the handlers run on the connection's event loop.
 */
final class ConnectionHandler extends ChannelInboundHandlerAdapter {

    private static final System.Logger LOG = System.getLogger(ConnectionHandler.class.getName());

    private final RequestDispatcher dispatcher;
    private final Listener listener;
    private final RequestParser parser;
    private final Executor executor;
    private final RequestBudget budget;
    private final ReadGate gate;
    private final int maxInFlight;
    private final long index;
    private final ArrayDeque<InFlight> inFlight = new ArrayDeque<>();
    private CompletableFuture<Void> handling = CompletableFuture.completedFuture(null);
    private ChannelHandlerContext ctx;
    private ConnectionInfo connection;
    private SaslAuthenticator authenticator;
    private KafkaPrincipal tlsPrincipal;
    private boolean closed;
    private CompletableFuture<Void> drained;

    ConnectionHandler(
            RequestDispatcher dispatcher,
            Listener listener,
            Executor executor,
            RequestBudget budget,
            ReadGate gate,
            int maxInFlight,
            long index) {
        this.dispatcher = dispatcher;
        this.listener = listener;
        this.parser = new RequestParser(dispatcher.apiVersions());
        this.executor = executor;
        this.budget = budget;
        this.gate = gate;
        this.maxInFlight = maxInFlight;
        this.index = index;
    }

    /** A request between its frame and its response. */
    private static final class InFlight {
        final Request request;
        Response response;

        InFlight(Request request) {
            this.request = request;
        }
    }

    @Override
    public void handlerAdded(ChannelHandlerContext context) {
        this.ctx = context;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        InetSocketAddress remote = (InetSocketAddress) ctx.channel().remoteAddress();
        connection = ConnectionInfo.of(
                (InetSocketAddress) ctx.channel().localAddress(), remote, index, listener.name(), listener.protocol());
        authenticator = listener.sasl()
                .map(sasl -> new SaslAuthenticator(sasl, remote.getAddress()))
                .orElse(null);
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuffer frame = (ByteBuffer) msg;
        int size = frame.remaining();
        if (authenticator != null && authenticator.expectsRawToken() && !closed) {
            budget.release(size);
            rawToken(ctx, frame);
            return;
        }
        Request request;
        try {
            if (closed) {
                throw new InvalidRequestException("the connection is closing");
            }
            request = parser.parse(frame, connection);
        } catch (InvalidRequestException e) {
            budget.release(size);
            if (!closed) {
                LOG.log(System.Logger.Level.DEBUG, () -> "Closing " + connection.connectionId(), e);
                closeAfterFlush(ctx);
            }
            return;
        }
        if (authenticator == null) {
            dispatch(ctx, listener.tls().isPresent() ? request.withPrincipal(tlsPrincipal(ctx)) : request);
            return;
        }
        boolean wasAuthenticated = authenticator.authenticated();
        switch (authenticator.onRequest(request, System.nanoTime())) {
            case SaslAuthenticator.Step.Dispatch(var authorized) -> dispatch(ctx, authorized);
            case SaslAuthenticator.Step.Answer(var response, var failed) -> {
                InFlight slot = new InFlight(request);
                inFlight.add(slot);
                completed(ctx, slot, response);
                if (failed) {
                    closeAfterDelay(ctx);
                } else if (!wasAuthenticated && authenticator.authenticated()) {
                    ctx.pipeline().get(FrameDecoder.class).authenticated();
                }
            }
            case SaslAuthenticator.Step.Close(var reason) -> {
                budget.release(size);
                LOG.log(System.Logger.Level.DEBUG, () -> "Closing " + connection.connectionId() + ": " + reason);
                closeAfterFlush(ctx);
            }
            case SaslAuthenticator.Step.Token token -> throw new IllegalStateException("a token for a request");
        }
    }

    private void rawToken(ChannelHandlerContext ctx, ByteBuffer frame) {
        if (!inFlight.isEmpty()) {
            LOG.log(
                    System.Logger.Level.DEBUG,
                    () -> "Closing " + connection.connectionId() + ": a SASL token pipelined behind requests");
            closeAfterFlush(ctx);
            return;
        }
        switch (authenticator.onRawToken(frame, System.nanoTime())) {
            case SaslAuthenticator.Step.Token(var token) -> {
                if (token != null) {
                    ByteBuf out = ctx.alloc().buffer(Integer.BYTES + token.length);
                    ctx.writeAndFlush(out.writeInt(token.length).writeBytes(token), ctx.voidPromise());
                }
                if (authenticator.authenticated()) {
                    ctx.pipeline().get(FrameDecoder.class).authenticated();
                }
            }
            case SaslAuthenticator.Step.Close(var reason) -> {
                LOG.log(System.Logger.Level.DEBUG, () -> "Closing " + connection.connectionId() + ": " + reason);
                closeAfterDelay(ctx);
            }
            case SaslAuthenticator.Step.Dispatch d -> throw new IllegalStateException("a request for a token");
            case SaslAuthenticator.Step.Answer a -> throw new IllegalStateException("an answer for a token");
        }
    }

    // The client certificate's principal (ANONYMOUS without one, where ssl.client.auth lets a client in without).
    private KafkaPrincipal tlsPrincipal(ChannelHandlerContext ctx) {
        if (tlsPrincipal == null) {
            ListenerTls tls = listener.tls().orElseThrow();
            tlsPrincipal = tls.principal(
                    ctx.pipeline().get(SslHandler.class).engine().getSession(),
                    connection.remote().getAddress());
        }
        return tlsPrincipal;
    }

    private void dispatch(ChannelHandlerContext ctx, Request request) {
        InFlight slot = new InFlight(request);
        inFlight.add(slot);
        if (inFlight.size() >= maxInFlight) {
            gate.close(ReadGate.Reason.IN_FLIGHT);
        }
        CompletableFuture<Response> response = new CompletableFuture<>();
        handling = handling.thenRunAsync(
                () -> dispatcher.dispatch(request).whenComplete((r, e) -> {
                    if (e == null) {
                        response.complete(r);
                    } else {
                        response.completeExceptionally(e);
                    }
                }),
                executor);
        handling.exceptionally(e -> {
            response.completeExceptionally(e);
            return null;
        });
        response.whenComplete((r, e) -> ctx.executor()
                .execute(() -> completed(
                        ctx,
                        slot,
                        e == null ? r : Response.closeConnection("the request could not be handled: " + e))));
    }

    private void completed(ChannelHandlerContext ctx, InFlight slot, Response response) {
        slot.response = response;
        boolean wrote = false;
        while (!inFlight.isEmpty() && inFlight.peek().response != null) {
            InFlight done = inFlight.poll();
            try {
                wrote |= !closed && write(ctx, done);
            } finally {
                budget.release(done.request.sizeInBytes());
            }
        }
        if (inFlight.size() < maxInFlight) {
            gate.open(ReadGate.Reason.IN_FLIGHT);
        }
        if (wrote) {
            ctx.flush();
        }
        if (inFlight.isEmpty() && drained != null) {
            ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(f -> drained.complete(null));
        }
    }

    /** Writes a response without flushing; returns whether anything was written. */
    private boolean write(ChannelHandlerContext ctx, InFlight slot) {
        Request request = slot.request;
        switch (slot.response) {
            case Response.Send(var data) -> {
                List<Object> pieces;
                try {
                    pieces = ResponseEncoder.encode(
                            ctx.alloc(),
                            request.header().correlationId(),
                            request.apiKey(),
                            request.apiVersion(),
                            data);
                } catch (RuntimeException e) {
                    LOG.log(
                            System.Logger.Level.ERROR,
                            "Cannot encode the response to " + request.header() + "; closing "
                                    + connection.connectionId(),
                            e);
                    closeAfterFlush(ctx);
                    return false;
                }
                boolean tls = listener.tls().isPresent();
                for (Object piece : pieces) {
                    // Over TLS the bytes pass through the engine: a file region goes as chunks read from the file.
                    ctx.write(
                            tls && piece instanceof RecordsRegion region ? region.chunks() : piece, ctx.voidPromise());
                }
                return true;
            }
            case Response.NoResponse none -> {
                return false;
            }
            case Response.CloseConnection(var reason) -> {
                LOG.log(System.Logger.Level.DEBUG, () -> "Closing " + connection.connectionId() + ": " + reason);
                closeAfterFlush(ctx);
                return false;
            }
        }
    }

    /**
     * After a failed authentication: stops reading, and closes once the responses are flushed and {@code
     * connection.failed.authentication.delay.ms} passed, as Kafka delays it against clients that retry at once.
     */
    private void closeAfterDelay(ChannelHandlerContext ctx) {
        closed = true;
        gate.close(ReadGate.Reason.SHUTDOWN);
        long delayMs = listener.sasl().orElseThrow().failedAuthenticationDelayMs();
        ctx.writeAndFlush(Unpooled.EMPTY_BUFFER)
                .addListener(f -> ctx.executor().schedule(() -> ctx.close(), delayMs, TimeUnit.MILLISECONDS));
    }

    /** Closes once the responses written before are flushed; later requests are dropped. */
    private void closeAfterFlush(ChannelHandlerContext ctx) {
        closed = true;
        gate.close(ReadGate.Reason.SHUTDOWN);
        ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
    }

    /**
     * Stops reading and completes once every request read so far is answered and flushed (or dropped, where the
     * connection closed). Called from any thread.
     */
    CompletableFuture<Void> drain() {
        CompletableFuture<Void> done = new CompletableFuture<>();
        ctx.executor().execute(() -> {
            gate.close(ReadGate.Reason.SHUTDOWN);
            drained = done;
            if (inFlight.isEmpty()) {
                ctx.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(f -> done.complete(null));
            }
        });
        return done;
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable()) {
            gate.open(ReadGate.Reason.UNWRITABLE);
        } else {
            gate.close(ReadGate.Reason.UNWRITABLE);
        }
        ctx.fireChannelWritabilityChanged();
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof IdleStateEvent && inFlight.isEmpty()) {
            LOG.log(System.Logger.Level.DEBUG, () -> "Closing idle connection " + connection.connectionId());
            ctx.close();
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        closed = true;
        if (drained != null && inFlight.isEmpty()) {
            drained.complete(null);
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        System.Logger.Level level =
                cause instanceof IOException ? System.Logger.Level.DEBUG : System.Logger.Level.WARNING;
        LOG.log(level, () -> "Closing " + (connection == null ? ctx.channel() : connection.connectionId()), cause);
        closed = true;
        ctx.close();
    }
}
