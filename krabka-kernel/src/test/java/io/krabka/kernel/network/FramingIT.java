package io.krabka.kernel.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The int32 size prefix over real TCP: limits that close, and frames however TCP cuts or joins them. */
@ExtendWith(NettyLeakCheck.class)
class FramingIT {

    private static final int MAX_SIZE = 4096;
    private SocketServer server;

    void start(Transport transport) throws InterruptedException {
        TransportSupport.assumeAvailable(transport);
        server = Servers.start(Servers.config().withTransport(transport).withSocketRequestMaxBytes(MAX_SIZE));
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @BeforeEach
    void reset() {
        server = null;
    }

    @ParameterizedTest
    @EnumSource(
            value = Transport.class,
            names = {"NIO", "EPOLL"})
    void aNegativeSizeClosesTheConnection(Transport transport) throws Exception {
        start(transport);
        try (KafkaWire wire = KafkaWire.connect(server.localAddress())) {
            wire.write(ByteBuffer.allocate(4).putInt(-1).array());
            assertNull(wire.readFrame());
        }
        assertServes();
    }

    @ParameterizedTest
    @EnumSource(
            value = Transport.class,
            names = {"NIO", "EPOLL"})
    void aSizeAboveTheMaximumClosesTheConnectionBeforeTheFrameArrives(Transport transport) throws Exception {
        start(transport);
        try (KafkaWire wire = KafkaWire.connect(server.localAddress())) {
            // Only the prefix is sent: the server must not wait for (or allocate) the declared bytes.
            wire.write(ByteBuffer.allocate(4).putInt(MAX_SIZE + 1).array());
            assertNull(wire.readFrame());
        }
        try (KafkaWire wire = KafkaWire.connect(server.localAddress())) {
            wire.write(ByteBuffer.allocate(4).putInt(Integer.MAX_VALUE).array());
            assertNull(wire.readFrame());
        }
        assertServes();
    }

    @ParameterizedTest
    @EnumSource(
            value = Transport.class,
            names = {"NIO", "EPOLL"})
    void aFrameOfExactlyTheMaximumIsRead(Transport transport) throws Exception {
        start(transport);
        byte[] request =
                KafkaWire.request(ApiKeys.API_VERSIONS, (short) 2, 5, "krabka-test", new ApiVersionsRequestData());
        byte[] padded = new byte[MAX_SIZE];
        System.arraycopy(request, 0, padded, 0, request.length);
        try (KafkaWire wire = KafkaWire.connect(server.localAddress())) {
            wire.write(KafkaWire.frame(padded));
            assertEquals(
                    Errors.NONE.code(),
                    wire.receive(ApiKeys.API_VERSIONS, (short) 2, 5, ApiVersionsResponse.class)
                            .data()
                            .errorCode());
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = Transport.class,
            names = {"NIO", "EPOLL"})
    void aFrameSplitAcrossSegmentsIsReassembled(Transport transport) throws Exception {
        start(transport);
        byte[] frame = KafkaWire.frame(KafkaWire.request(
                ApiKeys.API_VERSIONS,
                (short) 3,
                9,
                "krabka-test",
                new ApiVersionsRequestData().setClientSoftwareName("krabka").setClientSoftwareVersion("1")));
        try (KafkaWire wire = KafkaWire.connect(server.localAddress())) {
            for (byte b : frame) {
                // One byte per write with TCP_NODELAY: the size prefix itself arrives in pieces.
                wire.write(new byte[] {b});
                Thread.sleep(1);
            }
            assertEquals(
                    Errors.NONE.code(),
                    wire.receive(ApiKeys.API_VERSIONS, (short) 3, 9, ApiVersionsResponse.class)
                            .data()
                            .errorCode());
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = Transport.class,
            names = {"NIO", "EPOLL"})
    void manyFramesInOneWriteAreAnsweredInOrder(Transport transport) throws Exception {
        start(transport);
        ByteArrayOutputStream batch = new ByteArrayOutputStream();
        int frames = 200;
        for (int i = 0; i < frames; i++) {
            batch.writeBytes(KafkaWire.frame(KafkaWire.request(
                    ApiKeys.API_VERSIONS, (short) (i % 3), i, "krabka-test", new ApiVersionsRequestData())));
        }
        try (KafkaWire wire = KafkaWire.connect(server.localAddress())) {
            wire.write(batch.toByteArray());
            for (int i = 0; i < frames; i++) {
                assertEquals(
                        Errors.NONE.code(),
                        wire.receive(ApiKeys.API_VERSIONS, (short) (i % 3), i, ApiVersionsResponse.class)
                                .data()
                                .errorCode());
            }
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = Transport.class,
            names = {"NIO", "EPOLL"})
    void aTruncatedFrameThenEndOfStreamCloses(Transport transport) throws Exception {
        start(transport);
        byte[] frame = KafkaWire.frame(
                KafkaWire.request(ApiKeys.API_VERSIONS, (short) 0, 1, "krabka-test", new ApiVersionsRequestData()));
        try (KafkaWire wire = KafkaWire.connect(server.localAddress())) {
            wire.write(java.util.Arrays.copyOf(frame, frame.length - 3));
            wire.shutdownOutput();
            assertTrue(wire.closedByServer());
        }
        assertServes();
    }

    private void assertServes() throws IOException {
        try (KafkaWire wire = KafkaWire.connect(server.localAddress())) {
            wire.send(ApiKeys.API_VERSIONS, (short) 1, 77, new ApiVersionsRequestData());
            assertEquals(
                    Errors.NONE.code(),
                    wire.receive(ApiKeys.API_VERSIONS, (short) 1, 77, ApiVersionsResponse.class)
                            .data()
                            .errorCode());
        }
    }
}
