package io.krabka.kernel.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.log.BufferRecords;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.MetadataResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** A client that does not read its responses, and a broker whose request budget is spent, stop being read. */
@ExtendWith(NettyLeakCheck.class)
class BackPressureIT {

    private static final int RESPONSE_RECORDS = 64 * 1024;
    /** Requests padded (Kafka ignores bytes after the body) so that socket buffers cannot hold them all. */
    private static final int REQUEST_PADDING = 16 * 1024;

    private static final short FETCH_VERSION = 12;
    private SocketServer server;

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void aClientThatDoesNotReadStopsBeingReadAndResumesWhenItReads() throws Exception {
        AtomicInteger handled = new AtomicInteger();
        ByteBuffer records = ByteBuffer.allocate(RESPONSE_RECORDS);
        ApiHandler fetch = new ApiHandler() {
            @Override
            public ApiKeys apiKey() {
                return ApiKeys.FETCH;
            }

            @Override
            public CompletableFuture<Response> handle(Request request) {
                handled.incrementAndGet();
                return CompletableFuture.completedFuture(Response.send(new FetchResponseData()
                        .setResponses(List.of(new FetchResponseData.FetchableTopicResponse()
                                .setTopic("t")
                                .setPartitions(List.of(new FetchResponseData.PartitionData()
                                        .setRecords(new WireRecords(new BufferRecords(records)))))))));
            }
        };
        server = Servers.start(Servers.config(), fetch);
        int total = 2_000;
        try (SocketChannel client = SocketChannel.open(server.localAddress())) {
            client.configureBlocking(false);
            int sent = 0;
            ByteBuffer pending = null;
            int stalls = 0;
            // Write without reading until the server has stopped reading for a while.
            while (sent < total && stalls < 200) {
                if (pending == null || !pending.hasRemaining()) {
                    pending = ByteBuffer.wrap(fetchFrame(sent));
                }
                if (client.write(pending) == 0) {
                    stalls++;
                    Thread.sleep(5);
                } else {
                    stalls = 0;
                    if (!pending.hasRemaining()) {
                        sent++;
                    }
                }
            }
            assertTrue(sent < total, "the server read every request without its responses being read");
            // The socket buffers hold some responses (at most ~10 MiB on loopback); the server holds at most its
            // in-flight bound and ~1 MiB of responses.
            assertTrue(handled.get() < 500, handled.get() + " requests handled for a client that reads nothing");

            client.configureBlocking(true);
            // The frame being written is request `sent`; finish it, then write the others while reading.
            ByteBuffer rest = pending;
            int next = rest.hasRemaining() ? sent + 1 : sent;
            CompletableFuture<Void> writer = CompletableFuture.runAsync(() -> writeRest(client, rest, next, total));
            DataInputStream in = new DataInputStream(Channels.newInputStream(client));
            for (int id = 0; id < total; id++) {
                byte[] payload = new byte[in.readInt()];
                in.readFully(payload);
                assertEquals(id, ByteBuffer.wrap(payload).getInt(), "responses in request order");
            }
            writer.get(60, TimeUnit.SECONDS);
            assertEquals(total, handled.get());
        }
    }

    private static void writeRest(SocketChannel client, ByteBuffer pending, int next, int total) {
        try {
            while (pending.hasRemaining()) {
                client.write(pending);
            }
            for (int id = next; id < total; id++) {
                ByteBuffer frame = ByteBuffer.wrap(fetchFrame(id));
                while (frame.hasRemaining()) {
                    client.write(frame);
                }
            }
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static byte[] fetchFrame(int correlationId) {
        byte[] request = KafkaWire.request(
                ApiKeys.FETCH,
                FETCH_VERSION,
                correlationId,
                "c",
                new FetchRequestData().setReplicaId(-1).setMaxBytes(1 << 20));
        return KafkaWire.frame(java.util.Arrays.copyOf(request, request.length + REQUEST_PADDING));
    }

    /** queued.max.requests=1, or queued.max.request.bytes=1: either way one request fills the budget. */
    @ParameterizedTest
    @CsvSource({"1, -1", "500, 1"})
    void theBrokersRequestBudgetHoldsBackOtherConnections(int queuedRequests, long queuedBytes) throws Exception {
        HeldHandler metadata = new HeldHandler(ApiKeys.METADATA);
        server = Servers.start(Servers.config().withRequestBounds(5, queuedRequests, queuedBytes), metadata);
        try (KafkaWire first = KafkaWire.connect(server.localAddress());
                KafkaWire second = KafkaWire.connect(server.localAddress())) {
            first.send(ApiKeys.METADATA, (short) 12, 1, new MetadataRequestData());
            HeldHandler.Held held = metadata.next();
            second.send(ApiKeys.METADATA, (short) 12, 2, new MetadataRequestData());
            Thread.sleep(200);
            assertEquals(List.of(1), metadata.handled(), "the spent budget holds the second request back");
            held.response().complete(Response.send(new MetadataResponseData()));
            first.receive(ApiKeys.METADATA, (short) 12, 1, MetadataResponse.class);
            metadata.next().response().complete(Response.send(new MetadataResponseData()));
            second.receive(ApiKeys.METADATA, (short) 12, 2, MetadataResponse.class);
        }
    }
}
