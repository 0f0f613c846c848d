package io.krabka.kernel.network;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;

/**
 * The Netty transport of the socket server. NIO is the default because it keeps fetches zero-copy: a segment's
 * file region goes to a JDK socket channel, which {@code FileChannel.transferTo} sends with sendfile. Epoll hands a
 * file region a channel of its own, which the JDK can only feed through an 8 KiB buffer (measured here: 256 MiB
 * fetches over loopback at ~1.1-1.5 GB/s with NIO, ~0.33 GB/s with epoll).
 */
public enum Transport {
    /** The JDK's NIO selector: everywhere, with sendfile for file regions. */
    NIO,
    /** Linux epoll (an optional dependency): file regions are copied; fails to start where it is not available. */
    EPOLL;

    /** Whether the epoll classes and native library are present. */
    static boolean epollAvailable() {
        try {
            return Epoll.isAvailable();
        } catch (LinkageError e) {
            return false;
        }
    }

    IoHandlerFactory ioHandlerFactory() {
        return switch (this) {
            case EPOLL -> {
                Epoll.ensureAvailability();
                yield EpollIoHandler.newFactory();
            }
            case NIO -> NioIoHandler.newFactory();
        };
    }

    Class<? extends ServerChannel> serverChannel() {
        return switch (this) {
            case EPOLL -> EpollServerSocketChannel.class;
            case NIO -> NioServerSocketChannel.class;
        };
    }
}
