package io.krabka.kernel.network;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;

/** The Netty transport of the socket server. */
public enum Transport {
    /** Epoll where its native library loads, NIO otherwise. */
    AUTO,
    /** Linux epoll; fails to start where it is not available. */
    EPOLL,
    /** The JDK's NIO selector: everywhere. */
    NIO;

    /** The transport this one stands for here: AUTO becomes EPOLL or NIO. */
    Transport resolve() {
        return this == AUTO ? (epollAvailable() ? EPOLL : NIO) : this;
    }

    /** Whether the epoll classes and native library are present (they are an optional dependency). */
    static boolean epollAvailable() {
        try {
            return Epoll.isAvailable();
        } catch (LinkageError e) {
            return false;
        }
    }

    IoHandlerFactory ioHandlerFactory() {
        return switch (resolve()) {
            case EPOLL -> {
                Epoll.ensureAvailability();
                yield EpollIoHandler.newFactory();
            }
            case NIO -> NioIoHandler.newFactory();
            case AUTO -> throw new AssertionError("resolved");
        };
    }

    Class<? extends ServerChannel> serverChannel() {
        return switch (resolve()) {
            case EPOLL -> EpollServerSocketChannel.class;
            case NIO -> NioServerSocketChannel.class;
            case AUTO -> throw new AssertionError("resolved");
        };
    }
}
