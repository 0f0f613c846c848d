package io.krabka.kernel.network;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Objects;

/**
 * The settings of the broker's socket server, with Kafka's names and defaults where Kafka has them.
 *
 * @param listenAddress                    where to listen (port 0: any free port)
 * @param transport                        the Netty transport
 * @param numNetworkThreads                {@code num.network.threads}: event loops serving the connections
 * @param socketRequestMaxBytes            {@code socket.request.max.bytes}: the largest request frame
 * @param queuedMaxRequests                {@code queued.max.requests}: requests in flight in the whole broker
 * @param queuedMaxRequestBytes            {@code queued.max.request.bytes}: their bytes, -1 for no bound
 * @param maxInFlightRequestsPerConnection requests one connection may pipeline before it stops being read (a
 *                                         producer sends up to {@code max.in.flight.requests.per.connection}, 5)
 * @param maxQueuedResponseBytes           response bytes waiting for one socket before it stops being read
 * @param connectionsMaxIdle               {@code connections.max.idle.ms}: idle connections are closed after it
 * @param maxConnections                   {@code max.connections}: past it, connections wait to be accepted
 * @param shutdownTimeout                  how long shutdown waits for the requests in flight
 * @param socketSendBufferBytes            {@code socket.send.buffer.bytes}: SO_SNDBUF of each connection, -1 for
 *                                         the OS default
 * @param socketReceiveBufferBytes         {@code socket.receive.buffer.bytes}: SO_RCVBUF of each connection, -1
 *                                         for the OS default
 */
public record SocketServerConfig(
        InetSocketAddress listenAddress,
        Transport transport,
        int numNetworkThreads,
        int socketRequestMaxBytes,
        int queuedMaxRequests,
        long queuedMaxRequestBytes,
        int maxInFlightRequestsPerConnection,
        int maxQueuedResponseBytes,
        Duration connectionsMaxIdle,
        int maxConnections,
        Duration shutdownTimeout,
        int socketSendBufferBytes,
        int socketReceiveBufferBytes) {

    /** Kafka's {@code socket.send.buffer.bytes} and {@code socket.receive.buffer.bytes} default: 100 KiB. */
    public static final int DEFAULT_SOCKET_BUFFER_BYTES = 102_400;

    /** Kafka's {@code socket.request.max.bytes} default: 100 MiB. */
    public static final int DEFAULT_SOCKET_REQUEST_MAX_BYTES = 104_857_600;

    /** Checks the settings. */
    public SocketServerConfig {
        Objects.requireNonNull(listenAddress, "listenAddress");
        Objects.requireNonNull(transport, "transport");
        Objects.requireNonNull(connectionsMaxIdle, "connectionsMaxIdle");
        Objects.requireNonNull(shutdownTimeout, "shutdownTimeout");
        positive("num.network.threads", numNetworkThreads);
        positive("socket.request.max.bytes", socketRequestMaxBytes);
        positive("queued.max.requests", queuedMaxRequests);
        positive("max in-flight requests per connection", maxInFlightRequestsPerConnection);
        positive("max queued response bytes", maxQueuedResponseBytes);
        positive("max.connections", maxConnections);
        if (queuedMaxRequestBytes != -1 && queuedMaxRequestBytes <= 0) {
            throw new IllegalArgumentException(
                    "queued.max.request.bytes must be positive or -1: " + queuedMaxRequestBytes);
        }
        if (socketSendBufferBytes < -1
                || socketSendBufferBytes == 0
                || socketReceiveBufferBytes < -1
                || socketReceiveBufferBytes == 0) {
            throw new IllegalArgumentException("socket buffer sizes must be positive or -1: send "
                    + socketSendBufferBytes + ", receive " + socketReceiveBufferBytes);
        }
        if (connectionsMaxIdle.isNegative() || connectionsMaxIdle.isZero() || shutdownTimeout.isNegative()) {
            throw new IllegalArgumentException("connections.max.idle.ms " + connectionsMaxIdle
                    + " must be positive and the shutdown timeout " + shutdownTimeout + " not negative");
        }
    }

    private static void positive(String name, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(name + " must be positive: " + value);
        }
    }

    /** Kafka's defaults on this address. */
    public static SocketServerConfig defaults(InetSocketAddress listenAddress) {
        return new SocketServerConfig(
                listenAddress,
                Transport.NIO,
                3,
                DEFAULT_SOCKET_REQUEST_MAX_BYTES,
                500,
                -1,
                5,
                1 << 20,
                Duration.ofMillis(600_000),
                Integer.MAX_VALUE,
                Duration.ofSeconds(30),
                DEFAULT_SOCKET_BUFFER_BYTES,
                DEFAULT_SOCKET_BUFFER_BYTES);
    }

    /** These settings with another transport. */
    public SocketServerConfig withTransport(Transport value) {
        return new SocketServerConfig(
                listenAddress,
                value,
                numNetworkThreads,
                socketRequestMaxBytes,
                queuedMaxRequests,
                queuedMaxRequestBytes,
                maxInFlightRequestsPerConnection,
                maxQueuedResponseBytes,
                connectionsMaxIdle,
                maxConnections,
                shutdownTimeout,
                socketSendBufferBytes,
                socketReceiveBufferBytes);
    }

    /** These settings with another {@code socket.request.max.bytes}. */
    public SocketServerConfig withSocketRequestMaxBytes(int value) {
        return new SocketServerConfig(
                listenAddress,
                transport,
                numNetworkThreads,
                value,
                queuedMaxRequests,
                queuedMaxRequestBytes,
                maxInFlightRequestsPerConnection,
                maxQueuedResponseBytes,
                connectionsMaxIdle,
                maxConnections,
                shutdownTimeout,
                socketSendBufferBytes,
                socketReceiveBufferBytes);
    }

    /** These settings with other request bounds: per connection, and for the broker. */
    public SocketServerConfig withRequestBounds(int inFlightPerConnection, int queuedRequests, long queuedBytes) {
        return new SocketServerConfig(
                listenAddress,
                transport,
                numNetworkThreads,
                socketRequestMaxBytes,
                queuedRequests,
                queuedBytes,
                inFlightPerConnection,
                maxQueuedResponseBytes,
                connectionsMaxIdle,
                maxConnections,
                shutdownTimeout,
                socketSendBufferBytes,
                socketReceiveBufferBytes);
    }

    /** These settings with another bound on response bytes queued for one socket. */
    public SocketServerConfig withMaxQueuedResponseBytes(int value) {
        return new SocketServerConfig(
                listenAddress,
                transport,
                numNetworkThreads,
                socketRequestMaxBytes,
                queuedMaxRequests,
                queuedMaxRequestBytes,
                maxInFlightRequestsPerConnection,
                value,
                connectionsMaxIdle,
                maxConnections,
                shutdownTimeout,
                socketSendBufferBytes,
                socketReceiveBufferBytes);
    }

    /** These settings with other connection limits. */
    public SocketServerConfig withConnectionLimits(Duration maxIdle, int connections) {
        return new SocketServerConfig(
                listenAddress,
                transport,
                numNetworkThreads,
                socketRequestMaxBytes,
                queuedMaxRequests,
                queuedMaxRequestBytes,
                maxInFlightRequestsPerConnection,
                maxQueuedResponseBytes,
                maxIdle,
                connections,
                shutdownTimeout,
                socketSendBufferBytes,
                socketReceiveBufferBytes);
    }

    /** These settings with another shutdown timeout. */
    public SocketServerConfig withShutdownTimeout(Duration value) {
        return new SocketServerConfig(
                listenAddress,
                transport,
                numNetworkThreads,
                socketRequestMaxBytes,
                queuedMaxRequests,
                queuedMaxRequestBytes,
                maxInFlightRequestsPerConnection,
                maxQueuedResponseBytes,
                connectionsMaxIdle,
                maxConnections,
                value,
                socketSendBufferBytes,
                socketReceiveBufferBytes);
    }
}
