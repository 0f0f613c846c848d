package io.krabka.kernel.network;

import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.RejectedExecutionException;

/**
 * {@code max.connections}, which may change at run time: at the limit the broker stops accepting, so new connections
 * wait in the listen backlog as Kafka's acceptor makes them wait. A connection the acceptor still takes (Netty
 * completes an accept already requested) waits too, unread and not yet active, until a connection closes.
 */
@ChannelHandler.Sharable
final class ConnectionLimiter extends ChannelInboundHandlerAdapter {

    private int maxConnections;
    private final Queue<ChannelHandlerContext> waiting = new ArrayDeque<>();
    private final List<Channel> acceptors = new CopyOnWriteArrayList<>();
    private int connections;

    ConnectionLimiter(int maxConnections) {
        this.maxConnections = maxConnections;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        boolean admitted = admit(ctx);
        acceptAll();
        if (admitted) {
            ctx.fireChannelActive();
        } else {
            // Not read (the pipeline's head reads after this only if auto-read is on) until admitted.
            ctx.channel().config().setAutoRead(false);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        ChannelHandlerContext next = release(ctx);
        acceptAll();
        if (next != null) {
            next.executor().execute(() -> serve(next));
        }
        ctx.fireChannelInactive();
    }

    /**
     * Changes the limit without a restart: raised, the connections waiting are served up to it and the broker
     * accepts again; lowered, the connections open stay and new ones wait until enough have closed.
     */
    void setMaxConnections(int max) {
        List<ChannelHandlerContext> admitted = new ArrayList<>();
        synchronized (this) {
            maxConnections = max;
            while (connections < maxConnections && !waiting.isEmpty()) {
                connections++;
                admitted.add(waiting.poll());
            }
        }
        admitted.forEach(ctx -> ctx.executor().execute(() -> serve(ctx)));
        acceptAll();
    }

    /** Adds a listener's server channel: every listener's connections count against the one limit. */
    void addAcceptor(Channel acceptor) {
        acceptors.add(acceptor);
    }

    private void acceptAll() {
        acceptors.forEach(this::accept);
    }

    /**
     * Starts serving a connection that waited. One closed meanwhile is not started: its own channelInactive gives
     * back the place it was given.
     */
    private static void serve(ChannelHandlerContext ctx) {
        if (ctx.channel().isActive()) {
            ctx.channel().config().setAutoRead(true);
            ctx.fireChannelActive();
        }
    }

    private synchronized boolean admit(ChannelHandlerContext ctx) {
        if (connections < maxConnections) {
            connections++;
            return true;
        }
        waiting.add(ctx);
        return false;
    }

    /** Forgets a connection; returns the waiting one admitted in its place, if any. */
    private synchronized ChannelHandlerContext release(ChannelHandlerContext ctx) {
        if (waiting.remove(ctx)) {
            return null;
        }
        ChannelHandlerContext next = waiting.poll();
        if (next == null) {
            connections--;
        }
        return next;
    }

    /**
     * Accepts while under the limit. Connections open and close on several event loops; the acceptor's auto-read is
     * set on its own event loop from the count as it is then, so the last change seen is the one that holds however
     * the calls interleave. A closed acceptor (shutdown) is left alone.
     */
    private void accept(Channel acceptor) {
        try {
            acceptor.eventLoop().execute(() -> {
                if (acceptor.isOpen()) {
                    acceptor.config().setAutoRead(underLimit());
                }
            });
        } catch (RejectedExecutionException e) {
            // The acceptor's event loop has stopped: the server is shut down.
        }
    }

    private synchronized boolean underLimit() {
        return connections + waiting.size() < maxConnections;
    }

    /** The connections served now. */
    synchronized int connections() {
        return connections;
    }
}
