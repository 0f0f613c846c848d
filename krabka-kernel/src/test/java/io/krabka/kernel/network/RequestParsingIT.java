package io.krabka.kernel.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.requests.MetadataResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Requests Kafka closes the connection for (no error response is sent), and the ones it answers: Kafka's
 * {@code SocketServer.parseRequestHeader} and {@code RequestContext.parseRequest}.
 */
@ExtendWith(NettyLeakCheck.class)
class RequestParsingIT {

    private final HeldHandler metadata = new HeldHandler(ApiKeys.METADATA);
    private SocketServer server;

    @BeforeEach
    void start() throws InterruptedException {
        server = Servers.start(Servers.config(), metadata);
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void anUnknownApiKeyCloses() throws IOException {
        byte[] request = KafkaWire.request(ApiKeys.API_VERSIONS, (short) 0, 1, "c", new ApiVersionsRequestData());
        ByteBuffer.wrap(request).putShort(0, (short) 9999);
        assertCloses(KafkaWire.frame(request));
    }

    @Test
    void anUnsupportedVersionOfAnotherApiCloses() throws IOException {
        byte[] request = KafkaWire.request(ApiKeys.METADATA, (short) 12, 1, "c", new MetadataRequestData());
        ByteBuffer.wrap(request).putShort(2, (short) 99);
        assertCloses(KafkaWire.frame(request));
    }

    @Test
    void aVersionBelowKafkasOldestCloses() throws Exception {
        // Produce is advertised from 0 (KAFKA-18659) but versions 0-2 were removed in Kafka 4.0.
        server.close();
        server = Servers.start(Servers.config(), new HeldHandler(ApiKeys.PRODUCE));
        byte[] request = KafkaWire.request(ApiKeys.PRODUCE, (short) 3, 1, "c", new ProduceRequestData());
        ByteBuffer.wrap(request).putShort(2, (short) 2);
        assertCloses(KafkaWire.frame(request));
    }

    @Test
    void anApiWithoutAHandlerCloses() throws IOException {
        assertCloses(KafkaWire.frame(
                KafkaWire.request(ApiKeys.PRODUCE, (short) 9, 1, "c", new ProduceRequestData().setAcks((short) 1))));
    }

    @Test
    void aFrameTooShortForAHeaderCloses() throws IOException {
        assertCloses(KafkaWire.frame(new byte[] {0, 18}));
        assertCloses(KafkaWire.frame(new byte[0]));
    }

    @Test
    void aGarbageBodyCloses() throws IOException {
        byte[] request = KafkaWire.request(ApiKeys.METADATA, (short) 12, 1, "c", new MetadataRequestData());
        byte[] garbage = Arrays.copyOf(request, request.length + 8);
        // Header v2 of client id "c" is 11 bytes; the body's topics array then claims 2^31 entries.
        Arrays.fill(garbage, 11, garbage.length, (byte) 0x7f);
        assertCloses(KafkaWire.frame(garbage));
    }

    @Test
    void aTruncatedBodyCloses() throws IOException {
        byte[] request = KafkaWire.request(
                ApiKeys.API_VERSIONS,
                (short) 3,
                1,
                "c",
                new ApiVersionsRequestData().setClientSoftwareName("krabka").setClientSoftwareVersion("1.0"));
        assertCloses(KafkaWire.frame(Arrays.copyOf(request, request.length - 4)));
    }

    @Test
    void bytesAfterTheBodyAreIgnoredAsKafkaIgnoresThem() throws IOException {
        byte[] request = KafkaWire.request(
                ApiKeys.API_VERSIONS,
                (short) 3,
                6,
                "c",
                new ApiVersionsRequestData().setClientSoftwareName("krabka").setClientSoftwareVersion("1.0"));
        try (KafkaWire wire = KafkaWire.connect(server.localAddress())) {
            wire.write(KafkaWire.frame(Arrays.copyOf(request, request.length + 5)));
            assertEquals(
                    Errors.NONE.code(),
                    wire.receive(ApiKeys.API_VERSIONS, (short) 3, 6, ApiVersionsResponse.class)
                            .data()
                            .errorCode());
        }
    }

    @Test
    void aNullClientIdReadsAsEmpty() throws Exception {
        try (KafkaWire wire = KafkaWire.connect(server.localAddress())) {
            wire.write(KafkaWire.frame(
                    KafkaWire.request(ApiKeys.METADATA, (short) 8, 3, null, new MetadataRequestData())));
            HeldHandler.Held held = metadata.next();
            assertEquals("", held.request().header().clientId());
            held.response().complete(Response.send(new MetadataResponseData()));
            assertEquals(
                    0,
                    wire.receive(ApiKeys.METADATA, (short) 8, 3, MetadataResponse.class)
                            .brokers()
                            .size());
        }
    }

    @Test
    void theHandlerSeesTheHeaderTheBodyAndTheConnection() throws Exception {
        try (KafkaWire wire = KafkaWire.connect(server.localAddress())) {
            byte[] request = KafkaWire.request(
                    ApiKeys.METADATA,
                    (short) 12,
                    11,
                    "krabka-test",
                    new MetadataRequestData().setAllowAutoTopicCreation(false));
            wire.write(KafkaWire.frame(request));
            Request seen = metadata.next().request();
            assertEquals(11, seen.header().correlationId());
            assertEquals(12, seen.apiVersion());
            assertEquals(request.length, seen.sizeInBytes());
            assertEquals(
                    new MetadataRequestData().setAllowAutoTopicCreation(false),
                    seen.body().data());
            assertEquals(
                    server.localAddress().getPort(), seen.connection().local().getPort());
            assertTrue(
                    seen.connection()
                            .connectionId()
                            .startsWith("127.0.0.1:" + server.localAddress().getPort() + "-127.0.0.1:"),
                    seen.connection().connectionId());
        }
    }

    private void assertCloses(byte[] frame) throws IOException {
        try (KafkaWire wire = KafkaWire.connect(server.localAddress())) {
            wire.write(frame);
            assertNull(wire.readFrame(), "the connection was closed without a response");
        }
        try (KafkaWire wire = KafkaWire.connect(server.localAddress())) {
            wire.send(ApiKeys.API_VERSIONS, (short) 1, 2, new ApiVersionsRequestData());
            assertEquals(
                    Errors.NONE.code(),
                    wire.receive(ApiKeys.API_VERSIONS, (short) 1, 2, ApiVersionsResponse.class)
                            .data()
                            .errorCode());
        }
    }
}
