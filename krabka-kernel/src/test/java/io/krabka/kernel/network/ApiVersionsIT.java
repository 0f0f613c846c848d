package io.krabka.kernel.network;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.IOException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.clients.NodeApiVersions;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.ApiVersionsResponseData.ApiVersion;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/** ApiVersions over real TCP: Kafka 4.4's NetworkClient negotiates against it, and raw requests get Kafka's bytes. */
@ExtendWith(NettyLeakCheck.class)
class ApiVersionsIT {

    /** A Metadata handler that implements versions up to 12 only. */
    private static final class MetadataUpTo12 implements ApiHandler {
        private final HeldHandler held = new HeldHandler(ApiKeys.METADATA);

        @Override
        public ApiKeys apiKey() {
            return ApiKeys.METADATA;
        }

        @Override
        public short latestVersion() {
            return 12;
        }

        @Override
        public java.util.concurrent.CompletableFuture<Response> handle(Request request) {
            return held.handle(request);
        }
    }

    private SocketServer server;

    @BeforeEach
    void start() throws InterruptedException {
        server = Servers.start(Servers.config(), new MetadataUpTo12());
    }

    @AfterEach
    void stop() {
        server.close();
    }

    @Test
    void kafkaNetworkClientNegotiatesTheVersionsOfTheHandlersRegistered() throws IOException {
        NodeApiVersions negotiated = ClientNegotiation.negotiate(Servers.NODE_ID, server.localAddress());
        assertEquals(
                // SaslHandshake and SaslAuthenticate are every broker's, as Kafka advertises them on every listener.
                Set.of(ApiKeys.API_VERSIONS, ApiKeys.METADATA, ApiKeys.SASL_HANDSHAKE, ApiKeys.SASL_AUTHENTICATE),
                negotiated.allSupportedApiVersions().keySet());
        assertEquals(ApiKeys.API_VERSIONS.latestVersion(), negotiated.latestUsableVersion(ApiKeys.API_VERSIONS));
        assertEquals(12, negotiated.latestUsableVersion(ApiKeys.METADATA));
        assertEquals(Map.of(), negotiated.finalizedFeatures());
        assertEquals(-1, negotiated.finalizedFeaturesEpoch());
    }

    @Test
    void everyKnownVersionGetsTheTableWithResponseHeaderV0() throws IOException {
        try (KafkaWire wire = KafkaWire.connect(server.localAddress())) {
            for (short version = 0; version <= ApiKeys.API_VERSIONS.latestVersion(); version++) {
                ApiVersionsRequestData body = new ApiVersionsRequestData();
                if (version >= 3) {
                    body.setClientSoftwareName("krabka-test").setClientSoftwareVersion("1.0");
                }
                wire.send(ApiKeys.API_VERSIONS, version, 100 + version, body);
                ApiVersionsResponse response =
                        wire.receive(ApiKeys.API_VERSIONS, version, 100 + version, ApiVersionsResponse.class);
                assertEquals(Errors.NONE.code(), response.data().errorCode(), "v" + version);
                assertEquals(
                        Set.of(
                                new ApiVersion()
                                        .setApiKey(ApiKeys.API_VERSIONS.id)
                                        .setMinVersion((short) 0)
                                        .setMaxVersion(ApiKeys.API_VERSIONS.latestVersion()),
                                new ApiVersion()
                                        .setApiKey(ApiKeys.METADATA.id)
                                        .setMinVersion((short) 0)
                                        .setMaxVersion((short) 12),
                                new ApiVersion()
                                        .setApiKey(ApiKeys.SASL_HANDSHAKE.id)
                                        .setMinVersion((short) 0)
                                        .setMaxVersion((short) 1),
                                new ApiVersion()
                                        .setApiKey(ApiKeys.SASL_AUTHENTICATE.id)
                                        .setMinVersion((short) 0)
                                        .setMaxVersion((short) 2)),
                        Set.copyOf(response.data().apiKeys()),
                        "v" + version);
                assertEquals(0, response.throttleTimeMs());
            }
        }
    }

    @Test
    void anUnknownVersionGetsKafkasUnsupportedVersionBytes() throws IOException {
        try (KafkaWire wire = KafkaWire.connect(server.localAddress())) {
            // ApiVersions v99: the header is v2 (flexible); the body is never read.
            byte[] request =
                    KafkaWire.request(ApiKeys.API_VERSIONS, (short) 3, 42, "krabka-test", new ApiVersionsRequestData());
            request[3] = 99;
            wire.write(KafkaWire.frame(request));
            assertArrayEquals(
                    HexFormat.of().parseHex("0000002a" + "0023" + "00000001" + "0012" + "0000" + "0005"),
                    wire.readFrame());
            // The connection stays open: the client retries with a version it shares with the broker.
            wire.send(ApiKeys.API_VERSIONS, (short) 0, 43, new ApiVersionsRequestData());
            assertEquals(
                    Errors.NONE.code(),
                    wire.receive(ApiKeys.API_VERSIONS, (short) 0, 43, ApiVersionsResponse.class)
                            .data()
                            .errorCode());
        }
    }

    @Test
    void anInvalidClientSoftwareNameGetsInvalidRequest() throws IOException {
        try (KafkaWire wire = KafkaWire.connect(server.localAddress())) {
            wire.send(
                    ApiKeys.API_VERSIONS,
                    (short) 3,
                    7,
                    new ApiVersionsRequestData()
                            .setClientSoftwareName("not a name!")
                            .setClientSoftwareVersion("1.0"));
            ApiVersionsResponse response = wire.receive(ApiKeys.API_VERSIONS, (short) 3, 7, ApiVersionsResponse.class);
            assertEquals(Errors.INVALID_REQUEST.code(), response.data().errorCode());
        }
    }

    @Test
    void aV5ClientOfAnotherClusterOrNodeMustRebootstrap() throws IOException {
        short v5 = 5;
        try (KafkaWire wire = KafkaWire.connect(server.localAddress())) {
            Map<ApiVersionsRequestData, Errors> cases = Map.of(
                    body().setClusterId("another-cluster").setNodeId(Servers.NODE_ID),
                    Errors.REBOOTSTRAP_REQUIRED,
                    body().setClusterId(Servers.CLUSTER_ID).setNodeId(Servers.NODE_ID + 1),
                    Errors.REBOOTSTRAP_REQUIRED,
                    body().setClusterId(Servers.CLUSTER_ID).setNodeId(Servers.NODE_ID),
                    Errors.NONE,
                    body().setClusterId(null).setNodeId(-1),
                    Errors.NONE);
            int correlationId = 0;
            for (Map.Entry<ApiVersionsRequestData, Errors> c : cases.entrySet()) {
                wire.send(ApiKeys.API_VERSIONS, v5, ++correlationId, c.getKey());
                ApiVersionsResponse response =
                        wire.receive(ApiKeys.API_VERSIONS, v5, correlationId, ApiVersionsResponse.class);
                assertEquals(
                        c.getValue().code(),
                        response.data().errorCode(),
                        c.getKey().toString());
            }
        }
    }

    private static ApiVersionsRequestData body() {
        return new ApiVersionsRequestData().setClientSoftwareName("krabka-test").setClientSoftwareVersion("1.0");
    }
}
