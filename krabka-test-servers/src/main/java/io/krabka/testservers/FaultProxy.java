package io.krabka.testservers;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A TCP proxy on 127.0.0.1 that forwards each connection to a target and injects faults into chosen ones: a
 * real network failure for the client under test, without mocks. Faults are queued; each new connection takes
 * the next one, and connections that find the queue empty pass through untouched (unless an armed cut takes
 * them, see {@link #cutFirstTransferOver(long)}). A client that keeps
 * connections alive sends request after request on one connection until a fault breaks it, so a fault's byte
 * count runs across those requests; {@link #fail(Fault...)} closes the open connections, so that the client's
 * next request opens a new one (its first attempt may fail on the closed pooled connection).
 */
public final class FaultProxy implements AutoCloseable {

    /** What happens to one connection. */
    public sealed interface Fault {}

    /** The connection is forwarded untouched: a placeholder for the connections before a fault. */
    public record Pass() implements Fault {}

    /** The connection is reset (TCP RST) as soon as the client has sent its first bytes. */
    public record Reset() implements Fault {}

    /** The server's answer is held back for {@code delay} before it is forwarded. */
    public record Delay(Duration delay) implements Fault {
        /** Validates the delay. */
        public Delay {
            Objects.requireNonNull(delay, "delay");
        }
    }

    /** The proxy answers the first HTTP request itself with this status (e.g. 503) and closes the connection. */
    public record HttpStatus(int status) implements Fault {
        /** Validates the status. */
        public HttpStatus {
            if (status < 100 || status > 599) {
                throw new IllegalArgumentException("not an HTTP status: " + status);
            }
        }
    }

    /** A cut armed by {@link #cutFirstTransferOver(long)}: the first connection to send {@code bytes} takes it. */
    private record ArmedCut(long bytes) {
        ArmedCut {
            if (bytes < 1) {
                throw new IllegalArgumentException("bytes must be at least 1: " + bytes);
            }
        }
    }

    private final InetSocketAddress target;
    private final ServerSocket server;
    private final Queue<Fault> faults = new ConcurrentLinkedQueue<>();
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicInteger connections = new AtomicInteger();
    /** The cut armed by {@link #cutFirstTransferOver(long)}; null when none is. Compared by identity. */
    private final AtomicReference<ArmedCut> armedCut = new AtomicReference<>();

    private final AtomicInteger cuts = new AtomicInteger();
    private final Thread acceptor;

    /** A proxy to {@code host:port}, listening on a free port of 127.0.0.1. */
    public FaultProxy(String host, int port) throws IOException {
        this.target = new InetSocketAddress(host, port);
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.acceptor = Thread.ofVirtual().name("fault-proxy-accept").start(this::accept);
    }

    /** A proxy to the host and port of an {@code http://} endpoint. */
    public static FaultProxy to(URI endpoint) throws IOException {
        return new FaultProxy(endpoint.getHost(), endpoint.getPort());
    }

    /** The proxy's own endpoint, {@code http://127.0.0.1:<port>}. */
    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getLocalPort());
    }

    /** Queues faults for the next connections, in order, and closes the open ones so that clients reconnect. */
    public void fail(Fault... next) {
        faults.addAll(List.of(next));
        for (Socket socket : open) {
            closeQuietly(socket);
        }
    }

    /**
     * Cuts the first connection, of those not given a queued fault, whose client sends {@code bytes} from now on:
     * a large transfer cut in the middle, whichever of a client's parallel or pooled connections carries it,
     * including connections opened before this call. Connections that send less pass through. One cut, then it
     * is disarmed.
     */
    public void cutFirstTransferOver(long bytes) {
        armedCut.set(new ArmedCut(bytes));
    }

    /** Drops the faults not yet used and any armed cut; later connections pass through. */
    public void heal() {
        faults.clear();
        armedCut.set(null);
    }

    /** How many transfers the proxy has cut (armed cuts): a test's proof it did. */
    public int cuts() {
        return cuts.get();
    }

    /** How many connections the proxy has accepted. */
    public int connections() {
        return connections.get();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                connections.incrementAndGet();
                Fault fault = faults.poll();
                Thread.ofVirtual().name("fault-proxy-conn").start(() -> serve(client, fault));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket client, Fault fault) {
        open.add(client);
        try (client) {
            switch (fault) {
                case Reset r -> {
                    client.getInputStream().read();
                    reset(client);
                }
                case HttpStatus s -> answer(client, s.status());
                case null -> forward(client, Duration.ZERO, true);
                case Pass p -> forward(client, Duration.ZERO, false);
                case Delay d -> forward(client, d.delay(), false);
            }
        } catch (IOException | InterruptedException e) {
            // The client or the target went away: the connection ends, as a network's would.
        } finally {
            open.remove(client);
        }
    }

    /**
     * Forwards both ways; when {@code armable}, the client's side may be cut by an armed cut.
     */
    private void forward(Socket client, Duration delay, boolean armable) throws IOException, InterruptedException {
        try (Socket upstream = new Socket()) {
            upstream.connect(target, 10_000);
            open.add(upstream);
            Thread back = Thread.ofVirtual().start(() -> {
                try {
                    InputStream in = upstream.getInputStream();
                    byte[] first = new byte[8192];
                    int n = in.read(first);
                    if (n > 0 && delay.isPositive()) {
                        Thread.sleep(delay);
                    }
                    if (n > 0) {
                        client.getOutputStream().write(first, 0, n);
                        in.transferTo(client.getOutputStream());
                    }
                } catch (IOException | InterruptedException e) {
                    // Either side closed.
                } finally {
                    closeQuietly(client);
                }
            });
            try {
                if (copyUpstream(client.getInputStream(), upstream.getOutputStream(), armable)) {
                    cuts.incrementAndGet();
                    reset(client);
                    reset(upstream);
                }
            } finally {
                closeQuietly(upstream);
                back.join();
                open.remove(upstream);
            }
        }
    }

    /**
     * Copies the client's bytes until the end (false) or until the transfer is to be cut (true): when
     * {@code armable}, once this connection has sent an armed cut's bytes since it was armed and has claimed it
     * before any other connection.
     */
    private boolean copyUpstream(InputStream in, OutputStream out, boolean armable) throws IOException {
        byte[] buffer = new byte[8192];
        ArmedCut watched = null;
        long sinceArmed = 0;
        while (true) {
            ArmedCut armed = armable ? armedCut.get() : null;
            if (armed != watched) {
                watched = armed;
                sinceArmed = 0;
            }
            long room = watched == null ? Long.MAX_VALUE : watched.bytes() - sinceArmed;
            int n = in.read(buffer, 0, Math.clamp(room, 1, buffer.length));
            if (n < 0) {
                return false;
            }
            out.write(buffer, 0, n);
            sinceArmed += n;
            if (watched != null && sinceArmed >= watched.bytes() && armedCut.compareAndSet(watched, null)) {
                out.flush();
                return true;
            }
        }
    }

    private static void answer(Socket client, int status) throws IOException {
        InputStream in = client.getInputStream();
        // Read the request head, then answer without reading a body: as an overloaded server might.
        int matched = 0;
        byte[] end = {'\r', '\n', '\r', '\n'};
        while (matched < end.length) {
            int b = in.read();
            if (b < 0) {
                return;
            }
            matched = b == end[matched] ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        String body = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>SlowDown</Code>"
                + "<Message>injected by FaultProxy</Message></Error>";
        String response = "HTTP/1.1 " + status + " Injected\r\nContent-Type: application/xml\r\nContent-Length: "
                + body.length() + "\r\nConnection: close\r\n\r\n" + body;
        client.getOutputStream().write(response.getBytes(StandardCharsets.US_ASCII));
        client.getOutputStream().flush();
        client.shutdownOutput();
    }

    private static void reset(Socket socket) {
        try {
            socket.setSoLinger(true, 0);
        } catch (IOException e) {
            // Already closed.
        }
        closeQuietly(socket);
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // Nothing more to do.
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket socket : open) {
            closeQuietly(socket);
        }
        try {
            acceptor.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
