package io.krabka.kernel.network;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.stream.ChunkedWriteHandler;
import io.netty.handler.timeout.IdleStateHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The broker's Kafka-protocol server: one acceptor thread for every listener, {@code num.network.threads} event
 * loops shared by the listeners' connections that frame, parse and write (and encrypt, on TLS listeners, through
 * Netty's {@link SslHandler} over the JDK's engine), and the requests handled on virtual threads by a {@link
 * RequestDispatcher}'s handlers. {@link #close()} stops accepting, lets the requests in flight be answered, then
 * closes every connection.
 */
public final class SocketServer implements AutoCloseable {

    private static final System.Logger LOG = System.getLogger(SocketServer.class.getName());

    private final SocketServerConfig config;
    private final Transport transport;
    private final EventLoopGroup acceptorGroup;
    private final EventLoopGroup networkGroup;
    private final ExecutorService requestExecutor;
    private final RequestBudget budget;
    private final ConnectionLimiter limiter;
    private final Set<Channel> connections = ConcurrentHashMap.newKeySet();
    private final AtomicLong connectionIndex = new AtomicLong();
    private final AtomicBoolean closed = new AtomicBoolean();
    private final List<Channel> serverChannels = new ArrayList<>();
    private final List<Listener> listeners;

    private SocketServer(SocketServerConfig config, List<Listener> listeners, RequestDispatcher dispatcher)
            throws InterruptedException {
        this.listeners = List.copyOf(listeners);
        if (listeners.isEmpty()) {
            throw new IllegalArgumentException("no listener");
        }
        this.config = config;
        this.transport = config.transport();
        this.acceptorGroup = new MultiThreadIoEventLoopGroup(
                1, new DefaultThreadFactory("krabka-network-acceptor"), transport.ioHandlerFactory());
        this.networkGroup = new MultiThreadIoEventLoopGroup(
                config.numNetworkThreads(), new DefaultThreadFactory("krabka-network"), transport.ioHandlerFactory());
        this.requestExecutor = Executors.newThreadPerTaskExecutor(
                Thread.ofVirtual().name("krabka-request-", 0).factory());
        this.budget = new RequestBudget(config.queuedMaxRequests(), config.queuedMaxRequestBytes());
        this.limiter = new ConnectionLimiter(config.maxConnections());
        try {
            for (Listener listener : listeners) {
                Channel channel = bootstrap(listener, dispatcher)
                        .bind(listener.address())
                        .sync()
                        .channel();
                serverChannels.add(channel);
                limiter.addAcceptor(channel);
            }
        } catch (InterruptedException | RuntimeException e) {
            serverChannels.forEach(channel -> channel.close().syncUninterruptibly());
            shutdownThreads();
            throw e;
        }
    }

    /**
     * Starts a server with one PLAINTEXT listener on the configured address.
     *
     * @throws InterruptedException if interrupted while binding
     */
    public static SocketServer start(SocketServerConfig config, RequestDispatcher dispatcher)
            throws InterruptedException {
        return start(config, List.of(Listener.plaintext(config.listenAddress())), dispatcher);
    }

    /**
     * Starts a server listening on each listener; {@code config}'s own address is not used.
     *
     * @throws InterruptedException if interrupted while binding
     */
    public static SocketServer start(SocketServerConfig config, List<Listener> listeners, RequestDispatcher dispatcher)
            throws InterruptedException {
        SocketServer server = new SocketServer(config, listeners, dispatcher);
        for (int i = 0; i < server.listeners.size(); i++) {
            LOG.log(
                    System.Logger.Level.INFO,
                    "Listening on " + server.serverChannels.get(i).localAddress() + " as "
                            + server.listeners.get(i).name() + " ("
                            + server.listeners.get(i).protocol() + ", "
                            + server.transport + ", " + config.numNetworkThreads() + " network threads)");
        }
        return server;
    }

    private ServerBootstrap bootstrap(Listener listener, RequestDispatcher dispatcher) {
        int highWaterMark = config.maxQueuedResponseBytes();
        ServerBootstrap bootstrap = new ServerBootstrap();
        // As Kafka: the receive buffer on the listening socket (accepted sockets inherit it, as the TCP window must
        // be set before the handshake), the send buffer on each accepted one; -1 leaves the OS its own.
        if (config.socketReceiveBufferBytes() != -1) {
            bootstrap.option(ChannelOption.SO_RCVBUF, config.socketReceiveBufferBytes());
        }
        if (config.socketSendBufferBytes() != -1) {
            bootstrap.childOption(ChannelOption.SO_SNDBUF, config.socketSendBufferBytes());
        }
        return bootstrap
                .group(acceptorGroup, networkGroup)
                .channel(transport.serverChannel())
                .option(ChannelOption.SO_REUSEADDR, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(
                        ChannelOption.WRITE_BUFFER_WATER_MARK,
                        new WriteBufferWaterMark(highWaterMark / 2, highWaterMark))
                .childHandler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel channel) {
                        connections.add(channel);
                        channel.closeFuture().addListener(f -> connections.remove(channel));
                        ReadGate gate = new ReadGate(channel);
                        listener.tls().ifPresent(tls -> {
                            InetSocketAddress peer = (InetSocketAddress) channel.remoteAddress();
                            channel.pipeline()
                                    .addLast(
                                            new SslHandler(tls.newEngine(peer.getHostString(), peer.getPort())),
                                            new ChunkedWriteHandler());
                        });
                        int maxUntilAuthenticated = listener.sasl()
                                .map(sasl -> sasl.maxReceiveSize())
                                .orElse(config.socketRequestMaxBytes());
                        channel.pipeline()
                                .addLast(
                                        limiter,
                                        new IdleStateHandler(
                                                0,
                                                0,
                                                config.connectionsMaxIdle().toMillis(),
                                                TimeUnit.MILLISECONDS),
                                        new FrameDecoder(
                                                config.socketRequestMaxBytes(), maxUntilAuthenticated, budget, gate),
                                        new ConnectionHandler(
                                                dispatcher,
                                                listener,
                                                requestExecutor,
                                                budget,
                                                gate,
                                                config.maxInFlightRequestsPerConnection(),
                                                connectionIndex.getAndIncrement()));
                    }
                });
    }

    /** Changes {@code max.connections} without a restart; connections open stay open. */
    public void setMaxConnections(int maxConnections) {
        if (maxConnections < 1) {
            throw new IllegalArgumentException("max.connections must be at least 1: " + maxConnections);
        }
        limiter.setMaxConnections(maxConnections);
    }

    /** The address the first listener listens on (with the port chosen, where the configured port was 0). */
    public InetSocketAddress localAddress() {
        return (InetSocketAddress) serverChannels.getFirst().localAddress();
    }

    /** The address each listener listens on, by listener name. */
    public Map<String, InetSocketAddress> localAddresses() {
        Map<String, InetSocketAddress> addresses = new java.util.LinkedHashMap<>();
        for (int i = 0; i < listeners.size(); i++) {
            addresses.put(listeners.get(i).name(), (InetSocketAddress)
                    serverChannels.get(i).localAddress());
        }
        return addresses;
    }

    /** The transport in use. */
    public Transport transport() {
        return transport;
    }

    /** The connections open now. */
    public int connectionCount() {
        return limiter.connections();
    }

    /**
     * Shuts down: stops accepting, stops reading, waits up to the shutdown timeout for the requests in flight to be
     * answered and flushed, then closes the connections and stops the threads. Idempotent.
     */
    @Override
    public void close() {
        if (!closed.compareAndSet(false, true)) {
            return;
        }
        serverChannels.forEach(channel -> channel.close().syncUninterruptibly());
        List<CompletableFuture<Void>> drains = connections.stream()
                .map(channel -> channel.pipeline().get(ConnectionHandler.class))
                .filter(handler -> handler != null)
                .map(ConnectionHandler::drain)
                .toList();
        try {
            CompletableFuture.allOf(drains.toArray(CompletableFuture[]::new))
                    .get(config.shutdownTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "Closing connections with requests still in flight after " + config.shutdownTimeout());
        } catch (ExecutionException e) {
            LOG.log(System.Logger.Level.WARNING, "Draining the connections failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (Channel channel : List.copyOf(connections)) {
            channel.close().syncUninterruptibly();
        }
        shutdownThreads();
        LOG.log(
                System.Logger.Level.INFO,
                "Stopped listening on "
                        + serverChannels.stream().map(Channel::localAddress).toList());
    }

    private void shutdownThreads() {
        requestExecutor.shutdown();
        acceptorGroup
                .shutdownGracefully(0, config.shutdownTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .syncUninterruptibly();
        networkGroup
                .shutdownGracefully(0, config.shutdownTimeout().toMillis(), TimeUnit.MILLISECONDS)
                .syncUninterruptibly();
    }
}
