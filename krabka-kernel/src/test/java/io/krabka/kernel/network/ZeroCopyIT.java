package io.krabka.kernel.network;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * A Fetch response holding slices of a segment file goes out over real TCP as file regions and arrives
 * byte-identical to kafka-clients' own encoding of the same response with {@code MemoryRecords}; the segment's
 * channel stays open for the next fetch.
 */
@ExtendWith(NettyLeakCheck.class)
class ZeroCopyIT {

    @TempDir
    Path dir;

    private SocketServer server;

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = Transport.class,
            names = {"NIO", "EPOLL"})
    void fileSlicesArriveAsKafkaEncodesTheSameRecords(Transport transport) throws Exception {
        TransportSupport.assumeAvailable(transport);
        FetchResponses responses = new FetchResponses(dir.resolve("00000000000000000000.log"));
        ApiHandler fetch = new ApiHandler() {
            @Override
            public ApiKeys apiKey() {
                return ApiKeys.FETCH;
            }

            @Override
            public CompletableFuture<Response> handle(Request request) {
                return CompletableFuture.completedFuture(
                        Response.send(responses.withWireRecords(request.apiVersion())));
            }
        };
        server = Servers.start(Servers.config().withTransport(transport), fetch);
        try (KafkaWire wire = KafkaWire.connect(server.localAddress());
                responses) {
            int correlationId = 0;
            for (short version = ApiKeys.FETCH.oldestVersion(); version <= ApiKeys.FETCH.latestVersion(); version++) {
                for (int repeat = 0; repeat < 2; repeat++) {
                    wire.send(
                            ApiKeys.FETCH,
                            version,
                            ++correlationId,
                            new FetchRequestData()
                                    .setMaxWaitMs(0)
                                    .setReplicaId(-1)
                                    .setMaxBytes(1 << 20)
                                    .setTopics(List.of()));
                    byte[] expected =
                            FetchResponses.kafkaFrame(correlationId, version, responses.withMemoryRecords(version));
                    assertArrayEquals(
                            Arrays.copyOfRange(expected, 4, expected.length), wire.readFrame(), "Fetch v" + version);
                }
            }
            assertTrue(responses.channel.isOpen(), "the segment's channel is never closed by a response");
        }
    }
}
