package io.krabka.kernel.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.requests.MetadataResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** Idle connections, max.connections (changed at run time too), and shutdown with requests in flight. */
@ExtendWith(NettyLeakCheck.class)
class ConnectionsIT {

    private SocketServer server;

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void anIdleConnectionIsClosedButNotWhileARequestIsInFlight() throws Exception {
        HeldHandler metadata = new HeldHandler(ApiKeys.METADATA);
        server = Servers.start(
                Servers.config().withConnectionLimits(Duration.ofMillis(300), Integer.MAX_VALUE), metadata);
        try (KafkaWire idle = KafkaWire.connect(server.localAddress())) {
            assertNull(idle.readFrame(), "closed after connections.max.idle.ms without traffic");
        }
        try (KafkaWire busy = KafkaWire.connect(server.localAddress())) {
            busy.send(ApiKeys.METADATA, (short) 12, 1, new MetadataRequestData());
            HeldHandler.Held held = metadata.next();
            Thread.sleep(1000);
            held.response().complete(Response.send(new MetadataResponseData()));
            busy.receive(ApiKeys.METADATA, (short) 12, 1, MetadataResponse.class);
            assertNull(busy.readFrame(), "idle again once answered");
        }
    }

    @Test
    void pastMaxConnectionsNewConnectionsWaitUntilOneCloses() throws Exception {
        server = Servers.start(Servers.config().withConnectionLimits(Duration.ofMinutes(10), 2));
        KafkaWire first = KafkaWire.connect(server.localAddress());
        KafkaWire second = KafkaWire.connect(server.localAddress());
        try {
            assertAnswers(first, 1);
            assertAnswers(second, 2);
            // Each waiting socket is read on a thread of its own: CompletableFuture's default pool has a single
            // worker on a 2-core machine, where the read of the connection still waiting would block the other's.
            try (ExecutorService readers = Executors.newVirtualThreadPerTaskExecutor();
                    Socket third = new Socket();
                    Socket fourth = new Socket()) {
                // The kernel completes the handshakes from the backlog; the broker serves neither yet.
                third.connect(server.localAddress(), 10_000);
                third.getOutputStream()
                        .write(KafkaWire.frame(KafkaWire.request(
                                ApiKeys.API_VERSIONS, (short) 0, 3, "c", new ApiVersionsRequestData())));
                fourth.connect(server.localAddress(), 10_000);
                fourth.getOutputStream()
                        .write(KafkaWire.frame(KafkaWire.request(
                                ApiKeys.API_VERSIONS, (short) 0, 4, "c", new ApiVersionsRequestData())));
                third.setSoTimeout(300);
                fourth.setSoTimeout(300);
                assertThrows(
                        SocketTimeoutException.class, third.getInputStream()::read, "not served past max.connections");
                assertThrows(SocketTimeoutException.class, fourth.getInputStream()::read);
                assertEquals(2, server.connectionCount());
                // Which waiting connection the broker takes first is the kernel's accept order, not ours to assert.
                third.setSoTimeout(60_000);
                fourth.setSoTimeout(60_000);
                CompletableFuture<Integer> thirdServed = CompletableFuture.supplyAsync(() -> readOne(third), readers);
                CompletableFuture<Integer> fourthServed = CompletableFuture.supplyAsync(() -> readOne(fourth), readers);
                first.close();
                CompletableFuture.anyOf(thirdServed, fourthServed).get(60, TimeUnit.SECONDS);
                assertEquals(2, server.connectionCount(), "one waiting connection taken for the one that closed");
                second.close();
                assertTrue(thirdServed.get(60, TimeUnit.SECONDS) >= 0, "served once a connection closed");
                assertTrue(fourthServed.get(60, TimeUnit.SECONDS) >= 0, "served once another closed");
            }
        } finally {
            first.close();
            second.close();
        }
    }

    @Test
    void maxConnectionsChangesWithoutARestart() throws Exception {
        server = Servers.start(Servers.config().withConnectionLimits(Duration.ofMinutes(10), 1));
        KafkaWire first = KafkaWire.connect(server.localAddress());
        Socket second = new Socket();
        Socket third = new Socket();
        try {
            assertAnswers(first, 1);
            second.connect(server.localAddress(), 10_000);
            second.getOutputStream().write(apiVersions(2));
            second.setSoTimeout(300);
            assertThrows(SocketTimeoutException.class, second.getInputStream()::read, "waits at the limit");

            // Raised: the connection waiting is served at once.
            server.setMaxConnections(2);
            second.setSoTimeout(60_000);
            assertTrue(second.getInputStream().read() >= 0, "served once the limit is raised");
            assertEquals(2, server.connectionCount());

            // Lowered: the connections open stay; a new one waits until enough have closed.
            server.setMaxConnections(1);
            assertAnswers(first, 3);
            third.connect(server.localAddress(), 10_000);
            third.getOutputStream().write(apiVersions(4));
            third.setSoTimeout(300);
            assertThrows(SocketTimeoutException.class, third.getInputStream()::read, "waits below the new limit");
            second.close();
            assertThrows(SocketTimeoutException.class, third.getInputStream()::read, "one open is the limit");
            first.close();
            third.setSoTimeout(60_000);
            assertTrue(third.getInputStream().read() >= 0, "served once the connections open are under the limit");
        } finally {
            first.close();
            second.close();
            third.close();
        }
    }

    private static byte[] apiVersions(int correlationId) {
        return KafkaWire.frame(
                KafkaWire.request(ApiKeys.API_VERSIONS, (short) 0, correlationId, "c", new ApiVersionsRequestData()));
    }

    @Test
    void clientsChurningPastMaxConnectionsAreEachServedInTurn() throws Exception {
        server = Servers.start(Servers.config().withConnectionLimits(Duration.ofMinutes(10), 2));
        int clients = 6;
        int rounds = 40;
        // Connections open and close on every network thread at once, so the acceptor is stopped and restarted
        // from all of them; a stop applied after a later restart would leave the waiting clients unserved.
        try (ExecutorService threads = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> done = new ArrayList<>();
            for (int client = 0; client < clients; client++) {
                done.add(threads.submit(() -> {
                    for (int round = 0; round < rounds; round++) {
                        try (KafkaWire wire = KafkaWire.connect(server.localAddress())) {
                            assertAnswers(wire, round);
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> client : done) {
                client.get(120, TimeUnit.SECONDS);
            }
        }
        try (KafkaWire after = KafkaWire.connect(server.localAddress())) {
            assertAnswers(after, 1);
        }
    }

    @Test
    void shutdownStopsAcceptingAndAnswersTheRequestsInFlight() throws Exception {
        HeldHandler metadata = new HeldHandler(ApiKeys.METADATA);
        server = Servers.start(Servers.config(), metadata);
        InetSocketAddress address = server.localAddress();
        try (KafkaWire wire = KafkaWire.connect(address)) {
            wire.send(ApiKeys.METADATA, (short) 12, 1, new MetadataRequestData());
            HeldHandler.Held held = metadata.next();
            CompletableFuture<Void> closing = CompletableFuture.runAsync(server::close);
            awaitRefused(address);
            held.response().complete(Response.send(new MetadataResponseData()));
            wire.receive(ApiKeys.METADATA, (short) 12, 1, MetadataResponse.class);
            assertNull(wire.readFrame(), "closed once answered");
            closing.get(30, TimeUnit.SECONDS);
        }
    }

    @Test
    void shutdownClosesConnectionsWhoseRequestsOutlastTheTimeout() throws Exception {
        HeldHandler metadata = new HeldHandler(ApiKeys.METADATA);
        server = Servers.start(Servers.config().withShutdownTimeout(Duration.ofMillis(200)), metadata);
        try (KafkaWire wire = KafkaWire.connect(server.localAddress())) {
            wire.send(ApiKeys.METADATA, (short) 12, 1, new MetadataRequestData());
            HeldHandler.Held held = metadata.next();
            server.close();
            assertNull(wire.readFrame());
            held.response().complete(Response.send(new MetadataResponseData()));
        }
    }

    private static void awaitRefused(InetSocketAddress address) throws InterruptedException {
        for (int attempt = 0; attempt < 3000; attempt++) {
            try (Socket probe = new Socket()) {
                probe.connect(address, 1000);
            } catch (ConnectException refused) {
                return;
            } catch (IOException e) {
                throw new AssertionError(e);
            }
            Thread.sleep(10);
        }
        throw new AssertionError("still accepting connections during shutdown");
    }

    private static void assertAnswers(KafkaWire wire, int correlationId) throws IOException {
        wire.send(ApiKeys.API_VERSIONS, (short) 0, correlationId, new ApiVersionsRequestData());
        wire.receive(ApiKeys.API_VERSIONS, (short) 0, correlationId, ApiVersionsResponse.class);
    }

    private static int readOne(Socket socket) {
        try {
            return socket.getInputStream().read();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
