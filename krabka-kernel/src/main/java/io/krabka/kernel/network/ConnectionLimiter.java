package io.krabka.kernel.network;

import java.util.ArrayDeque;
import java.util.Queue;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * {@code max.connections}: at the limit the broker stops accepting, so new connections wait in the listen backlog
 * as Kafka's acceptor makes them wait. A connection the acceptor still takes (Netty completes an accept already
 * requested) waits too, unread and not yet active, until a connection closes.
 */
@ChannelHandler.Sharable
final class ConnectionLimiter extends ChannelInboundHandlerAdapter {

    private final int maxConnections;
    private final Queue<ChannelHandlerContext> waiting = new ArrayDeque<>();
    private int connections;

    ConnectionLimiter(int maxConnections) {
        this.maxConnections = maxConnections;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        if (admit(ctx)) {
            ctx.fireChannelActive();
        } else {
            // Not read (the pipeline's head reads after this only if auto-read is on) until admitted.
            ctx.channel().config().setAutoRead(false);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        ChannelHandlerContext next = release(ctx);
        if (next != null) {
            next.executor().execute(() -> {
                next.channel().config().setAutoRead(true);
                next.fireChannelActive();
            });
        }
        ctx.fireChannelInactive();
    }

    private synchronized boolean admit(ChannelHandlerContext ctx) {
        boolean admitted = connections < maxConnections;
        if (admitted) {
            connections++;
        } else {
            waiting.add(ctx);
        }
        accept(ctx.channel().parent());
        return admitted;
    }

    /** Forgets a connection; returns the waiting one admitted in its place, if any. */
    private synchronized ChannelHandlerContext release(ChannelHandlerContext ctx) {
        ChannelHandlerContext next = null;
        if (!waiting.remove(ctx)) {
            connections--;
            next = waiting.poll();
            if (next != null) {
                connections++;
            }
        }
        accept(ctx.channel().parent());
        return next;
    }

    /** Accepts while under the limit; a closed acceptor (shutdown) is left alone. */
    private void accept(Channel acceptor) {
        if (acceptor.isOpen()) {
            acceptor.config().setAutoRead(connections + waiting.size() < maxConnections);
        }
    }

    /** The connections served now. */
    synchronized int connections() {
        return connections;
    }
}
