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
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;

/**
 * A TCP proxy on 127.0.0.1 that forwards each connection to a target and injects faults into chosen ones: a
 * real network failure for the client under test, without mocks. Faults are queued; each new connection takes
 * the next one, and connections that find the queue empty pass through untouched. A client that keeps
 * connections alive sends request after request on one connection until a fault breaks it, so a fault's byte
 * count runs across those requests; {@link #fail(Fault...)} closes the open connections, so that the client's
 * next request opens a new one (its first attempt may fail on the closed pooled connection).
 */
public final class FaultProxy implements AutoCloseable {

    /** What happens to one connection. */
    public sealed interface Fault {
    }

    /** The connection is forwarded untouched: a placeholder for the connections before a fault. */
    public record Pass() implements Fault {
    }

    /** The connection is reset (TCP RST) as soon as the client has sent its first bytes. */
    public record Reset() implements Fault {
    }

    /** The server's answer is held back for {@code delay} before it is forwarded. */
    public record Delay(Duration delay) implements Fault {
        /** Validates the delay. */
        public Delay {
            Objects.requireNonNull(delay, "delay");
        }
    }

    /**
     * The client's bytes are forwarded up to {@code bytes}, then the connection is reset: a transfer cut in the
     * middle.
     */
    public record CutAfter(long bytes) implements Fault {
        /** Validates the count. */
        public CutAfter {
            if (bytes < 0) {
                throw new IllegalArgumentException("bytes must be at least 0: " + bytes);
            }
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

    private final InetSocketAddress target;
    private final ServerSocket server;
    private final Queue<Fault> faults = new ConcurrentLinkedQueue<>();
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    private final AtomicInteger connections = new AtomicInteger();
    /** The byte count at which the next connection to send that many is cut; 0 when none is armed. */
    private final AtomicLong armedCut = new AtomicLong();
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
     * Cuts the first connection, of those not given a queued fault, whose client sends more than {@code bytes}:
     * a large transfer cut in the middle, whichever of a client's parallel or pooled connections carries it.
     * Connections that send less pass through. One cut, then it is disarmed.
     */
    public void cutFirstTransferOver(long bytes) {
        if (bytes < 1) {
            throw new IllegalArgumentException("bytes must be at least 1: " + bytes);
        }
        armedCut.set(bytes);
    }

    /** Drops the faults not yet used and any armed cut; later connections pass through. */
    public void heal() {
        faults.clear();
        armedCut.set(0);
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
                case null -> forwardUnlessCut(client);
                case Pass p -> forward(client, Long.MAX_VALUE, Duration.ZERO);
                case Delay d -> forward(client, Long.MAX_VALUE, d.delay());
                case CutAfter c -> forward(client, c.bytes(), Duration.ZERO);
            }
        } catch (IOException | InterruptedException e) {
            // The client or the target went away: the connection ends, as a network's would.
        } finally {
            open.remove(client);
        }
    }

    private void forwardUnlessCut(Socket client) throws IOException, InterruptedException {
        long cut = armedCut.get();
        if (cut == 0) {
            forward(client, Long.MAX_VALUE, Duration.ZERO);
            return;
        }
        forward(client, cut, Duration.ZERO, () -> armedCut.compareAndSet(cut, 0));
    }

    private void forward(Socket client, long upstreamLimit, Duration delay) throws IOException, InterruptedException {
        forward(client, upstreamLimit, delay, () -> true);
    }

    /** Forwards both ways; at {@code upstreamLimit} client bytes the connection is reset if {@code claimCut} agrees. */
    private void forward(Socket client, long upstreamLimit, Duration delay, BooleanSupplier claimCut)
            throws IOException, InterruptedException {
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
                if (copy(client.getInputStream(), upstream.getOutputStream(), upstreamLimit)) {
                    if (claimCut.getAsBoolean()) {
                        reset(client);
                        reset(upstream);
                    } else {
                        // Another connection took the cut: this one goes on untouched.
                        client.getInputStream().transferTo(upstream.getOutputStream());
                    }
                }
            } finally {
                closeQuietly(upstream);
                back.join();
                open.remove(upstream);
            }
        }
    }

    /** Copies until the end, or until {@code limit} bytes: then returns true, the transfer cut. */
    private static boolean copy(InputStream in, OutputStream out, long limit) throws IOException {
        byte[] buffer = new byte[8192];
        long copied = 0;
        while (true) {
            int n = in.read(buffer, 0, (int) Math.min(buffer.length, Math.max(1, limit - copied)));
            if (n < 0) {
                return false;
            }
            int allowed = (int) Math.min(n, limit - copied);
            out.write(buffer, 0, allowed);
            copied += allowed;
            if (copied >= limit) {
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
