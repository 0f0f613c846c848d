package io.krabka.kernel.broker;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * The broker's health endpoint over HTTP: {@code GET /healthz} answers 200 while the process is up (liveness);
 * {@code GET /readyz} answers 200 once the broker serves its listener and 503 before that and while it shuts down
 * (readiness); {@code GET /metrics} answers the broker's metrics in Prometheus' text format. Other paths get 404,
 * other methods 405.
 */
final class HealthServer implements AutoCloseable {

    private static final String PLAIN = "text/plain; charset=utf-8";

    // Prometheus' text format names its version: a scraper (Prometheus 3) picks the parser by the content type.
    private static final String PROMETHEUS = "text/plain; version=0.0.4; charset=utf-8";

    private final HttpServer server;
    private final ExecutorService executor;

    private HealthServer(HttpServer server, ExecutorService executor) {
        this.server = server;
        this.executor = executor;
    }

    /**
     * Starts listening.
     *
     * @param ready   whether the broker serves now
     * @param metrics the metrics, as Prometheus text
     * @throws IOException if the address cannot be bound
     */
    static HealthServer start(InetSocketAddress address, BooleanSupplier ready, Supplier<String> metrics)
            throws IOException {
        HttpServer server = HttpServer.create(address, 0);
        ExecutorService executor = Executors.newThreadPerTaskExecutor(
                Thread.ofVirtual().name("krabka-health-", 0).factory());
        server.setExecutor(executor);
        server.createContext("/", exchange -> answer(exchange, 404, "not found", PLAIN));
        server.createContext("/healthz", exchange -> answer(exchange, 200, "ok", PLAIN));
        server.createContext("/readyz", exchange -> {
            boolean serving = ready.getAsBoolean();
            answer(exchange, serving ? 200 : 503, serving ? "ready" : "not ready", PLAIN);
        });
        server.createContext(
                "/metrics", exchange -> answer(exchange, 200, metrics.get().stripTrailing(), PROMETHEUS));
        server.start();
        return new HealthServer(server, executor);
    }

    private static void answer(HttpExchange exchange, int status, String body, String contentType) throws IOException {
        try (exchange) {
            String method = exchange.getRequestMethod();
            boolean head = method.equals("HEAD");
            if (!head && !method.equals("GET")) {
                exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                exchange.sendResponseHeaders(405, -1);
                return;
            }
            // An exact path only: a context matches every path it prefixes.
            String path = exchange.getRequestURI().getPath();
            boolean exact = path.equals(exchange.getHttpContext().getPath()) || status == 404;
            byte[] bytes = ((exact ? body : "not found") + "\n").getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().set("Content-Type", exact ? contentType : PLAIN);
            exchange.sendResponseHeaders(exact ? status : 404, head ? -1 : bytes.length);
            if (!head) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(bytes);
                }
            }
        }
    }

    /** The address it listens on (with the port chosen, where the configured port was 0). */
    InetSocketAddress address() {
        return server.getAddress();
    }

    /** Stops at once: a probe in flight may go unanswered, which a prober takes as not ready. */
    @Override
    public void close() {
        server.stop(0);
        executor.close();
    }
}
