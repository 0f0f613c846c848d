package io.krabka.kernel.network;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * {@code max.connections}: when the broker holds that many connections it stops accepting, so new ones wait in the
 * listen backlog as Kafka's acceptor makes them wait; it accepts again when one closes. A connection accepted past
 * the limit in the same accept burst is closed.
 */
@ChannelHandler.Sharable
final class ConnectionLimiter extends ChannelInboundHandlerAdapter {

    private final int maxConnections;
    private int connections;

    ConnectionLimiter(int maxConnections) {
        this.maxConnections = maxConnections;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        if (!admit(ctx.channel().parent())) {
            ctx.close();
            return;
        }
        ctx.fireChannelActive();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        release(ctx.channel().parent());
        ctx.fireChannelInactive();
    }

    /** Counts a connection; the accepting pauses at the limit (under the lock, so the last change decides). */
    private synchronized boolean admit(Channel acceptor) {
        connections++;
        acceptor.config().setAutoRead(connections < maxConnections);
        return connections <= maxConnections;
    }

    private synchronized void release(Channel acceptor) {
        connections--;
        acceptor.config().setAutoRead(connections < maxConnections);
    }

    /** The connections open now. */
    synchronized int connections() {
        return connections;
    }
}
