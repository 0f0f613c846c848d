package io.krabka.kernel.network;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.security.ListenerSasl;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.kafka.common.message.ApiMessageType;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.SaslAuthenticateRequestData;
import org.apache.kafka.common.message.SaslHandshakeRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.requests.MetadataResponse;
import org.apache.kafka.common.requests.SaslAuthenticateResponse;
import org.apache.kafka.common.requests.SaslHandshakeResponse;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A SASL_PLAINTEXT listener against raw frames, as Kafka's SaslServerAuthenticator treats them: before a client has
 * authenticated only ApiVersions, SaslHandshake and SaslAuthenticate are taken, anything else closes the connection
 * and never reaches a handler (a counting handler of every other API sees nothing); malformed, oversized and
 * out-of-order authentication frames close the connection and the listener keeps serving; a v0 handshake is followed
 * by raw tokens; a session that ended closes the connection unless the client re-authenticated.
 */
@ExtendWith(NettyLeakCheck.class)
class SaslAuthenticationIT {

    private static final String JAAS =
            "org.apache.kafka.common.security.plain.PlainLoginModule required " + "user_alice=\"alice-secret\";";
    private static final int MAX_RECEIVE = 1024;

    private final ConcurrentLinkedQueue<Request> handled = new ConcurrentLinkedQueue<>();
    private SocketServer server;

    /** Answers Metadata with no topics; records every request of every API that reaches it. */
    private final class Counting implements ApiHandler {
        private final ApiKeys apiKey;

        Counting(ApiKeys apiKey) {
            this.apiKey = apiKey;
        }

        @Override
        public ApiKeys apiKey() {
            return apiKey;
        }

        @Override
        public CompletableFuture<Response> handle(Request request) {
            handled.add(request);
            return CompletableFuture.completedFuture(
                    apiKey == ApiKeys.METADATA
                            ? Response.send(new MetadataResponseData())
                            : Response.closeConnection("counted"));
        }
    }

    private void start(long maxReauthMs) throws InterruptedException {
        ListenerSasl sasl = ListenerSasl.of(
                Map.of(
                        "sasl.enabled.mechanisms",
                        "PLAIN",
                        "listener.name.sasl_plaintext.plain.sasl.jaas.config",
                        JAAS,
                        "connections.max.reauth.ms",
                        String.valueOf(maxReauthMs),
                        "connection.failed.authentication.delay.ms",
                        "0",
                        "sasl.server.max.receive.size",
                        String.valueOf(MAX_RECEIVE)),
                "SASL_PLAINTEXT",
                SecurityProtocol.SASL_PLAINTEXT,
                (user, mechanism) -> Optional.empty());
        List<ApiHandler> handlers = new ArrayList<>();
        for (ApiKeys key : ApiKeys.brokerApis()) {
            if (key != ApiKeys.API_VERSIONS
                    && key != ApiKeys.SASL_HANDSHAKE
                    && key != ApiKeys.SASL_AUTHENTICATE
                    && key.hasValidVersion()) {
                handlers.add(new Counting(key));
            }
        }
        server = SocketServer.start(
                Servers.config(),
                List.of(new Listener(
                        "SASL_PLAINTEXT",
                        new InetSocketAddress("127.0.0.1", 0),
                        SecurityProtocol.SASL_PLAINTEXT,
                        Optional.empty(),
                        Optional.of(sasl))),
                Servers.dispatcher(handlers.toArray(ApiHandler[]::new)));
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void beforeAuthenticationNoOtherRequestReachesAHandler() throws Exception {
        start(0);
        for (ApiKeys api : ApiKeys.brokerApis()) {
            if (api == ApiKeys.API_VERSIONS || api == ApiKeys.SASL_HANDSHAKE || api == ApiKeys.SASL_AUTHENTICATE) {
                continue;
            }
            byte[] request;
            try {
                request = KafkaWire.request(
                        api,
                        api.latestVersion(),
                        1,
                        "test",
                        ApiMessageType.fromApiKey(api.id).newRequest());
            } catch (RuntimeException e) {
                continue; // a default body this version cannot write
            }
            try (KafkaWire wire = KafkaWire.connect(server.localAddress())) {
                wire.write(KafkaWire.frame(request));
                assertTrue(wire.closedByServer(), api.toString());
            }
        }
        try (KafkaWire wire = KafkaWire.connect(server.localAddress())) {
            wire.send(ApiKeys.API_VERSIONS, (short) 3, 1, apiVersions());
            ApiVersionsResponse versions = wire.receive(ApiKeys.API_VERSIONS, (short) 3, 1, ApiVersionsResponse.class);
            assertNotNull(versions.apiVersion(ApiKeys.SASL_HANDSHAKE.id));
            assertNotNull(versions.apiVersion(ApiKeys.SASL_AUTHENTICATE.id));
            wire.send(ApiKeys.CREATE_TOPICS, (short) 7, 2, new CreateTopicsRequestData());
            assertTrue(wire.closedByServer());
        }
        // Authenticating, a request other than SaslAuthenticate fails the authentication.
        try (KafkaWire wire = KafkaWire.connect(server.localAddress())) {
            handshake(wire, (short) 1, "PLAIN");
            wire.send(ApiKeys.METADATA, (short) 12, 3, new MetadataRequestData());
            assertTrue(wire.closedByServer());
        }
        assertEquals(List.of(), List.copyOf(handled));
        assertAuthenticates();
    }

    @Test
    void outOfOrderAndUnknownMechanismsClose() throws Exception {
        start(0);
        try (KafkaWire wire = KafkaWire.connect(server.localAddress())) {
            wire.send(ApiKeys.SASL_AUTHENTICATE, (short) 2, 1, token("alice", "alice-secret"));
            assertTrue(wire.closedByServer());
        }
        try (KafkaWire wire = KafkaWire.connect(server.localAddress())) {
            wire.send(ApiKeys.API_VERSIONS, (short) 3, 1, apiVersions());
            wire.receive(ApiKeys.API_VERSIONS, (short) 3, 1, ApiVersionsResponse.class);
            wire.send(ApiKeys.API_VERSIONS, (short) 3, 2, apiVersions());
            assertTrue(wire.closedByServer());
        }
        try (KafkaWire wire = KafkaWire.connect(server.localAddress())) {
            wire.send(ApiKeys.SASL_HANDSHAKE, (short) 1, 1, new SaslHandshakeRequestData().setMechanism("GSSAPI"));
            SaslHandshakeResponse response =
                    wire.receive(ApiKeys.SASL_HANDSHAKE, (short) 1, 1, SaslHandshakeResponse.class);
            assertEquals(Errors.UNSUPPORTED_SASL_MECHANISM, response.error());
            assertEquals(List.of("PLAIN"), response.data().mechanisms());
            assertTrue(wire.closedByServer());
        }
        try (KafkaWire wire = KafkaWire.connect(server.localAddress())) {
            handshake(wire, (short) 1, "PLAIN");
            wire.send(
                    ApiKeys.SASL_AUTHENTICATE,
                    (short) 2,
                    2,
                    new SaslAuthenticateRequestData().setAuthBytes("garbage".getBytes(StandardCharsets.UTF_8)));
            SaslAuthenticateResponse failed =
                    wire.receive(ApiKeys.SASL_AUTHENTICATE, (short) 2, 2, SaslAuthenticateResponse.class);
            assertEquals(Errors.SASL_AUTHENTICATION_FAILED, failed.error());
            assertTrue(wire.closedByServer());
        }
        try (KafkaWire wire = KafkaWire.connect(server.localAddress())) {
            // Larger than sasl.server.max.receive.size before authentication.
            wire.write(ByteBuffer.allocate(4).putInt(MAX_RECEIVE + 1).array());
            assertTrue(wire.closedByServer());
        }
        assertEquals(List.of(), List.copyOf(handled));
        assertAuthenticates();
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2})
    void fuzzedAuthenticationFramesCloseOrFailAndReachNoHandler(long seed) throws Exception {
        start(0);
        Random random = new Random(seed);
        List<byte[]> templates = List.of(
                KafkaWire.request(
                        ApiKeys.SASL_HANDSHAKE,
                        (short) 1,
                        1,
                        "fuzz",
                        new SaslHandshakeRequestData().setMechanism("PLAIN")),
                KafkaWire.request(
                        ApiKeys.SASL_HANDSHAKE,
                        (short) 0,
                        1,
                        "fuzz",
                        new SaslHandshakeRequestData().setMechanism("PLAIN")),
                KafkaWire.request(ApiKeys.SASL_AUTHENTICATE, (short) 2, 2, "fuzz", token("alice", "alice-secret")),
                KafkaWire.request(ApiKeys.API_VERSIONS, (short) 3, 3, "fuzz", apiVersions()));
        for (int i = 0; i < 300; i++) {
            try (KafkaWire wire = KafkaWire.connect(server.localAddress())) {
                int frames = 1 + random.nextInt(4);
                for (int f = 0; f < frames; f++) {
                    byte[] payload =
                            templates.get(random.nextInt(templates.size())).clone();
                    if (random.nextBoolean()) {
                        for (int flips = 1 + random.nextInt(4); flips > 0; flips--) {
                            int at = random.nextInt(payload.length);
                            payload[at] = (byte) (payload[at] ^ (1 << random.nextInt(8)));
                        }
                    }
                    writeUnlessClosed(
                            wire,
                            random.nextInt(10) == 0
                                    ? Integer.toString(random.nextInt()).getBytes(StandardCharsets.UTF_8)
                                    : KafkaWire.frame(payload));
                }
                writeUnlessClosed(
                        wire,
                        KafkaWire.frame(KafkaWire.request(
                                ApiKeys.METADATA, (short) 12, 99, "fuzz", new MetadataRequestData())));
                try {
                    wire.shutdownOutput();
                } catch (IOException e) {
                    // closed by the server
                }
                assertTrue(wire.closedByServer());
            }
        }
        // A fuzzed sequence may authenticate alice (the templates in order): then only her requests were handled.
        assertTrue(
                handled.stream()
                        .allMatch(request -> request.principal().toString().equals("User:alice")),
                handled.toString());
        assertAuthenticates();
    }

    @Test
    void aV0HandshakeIsFollowedByRawTokens() throws Exception {
        start(0);
        try (KafkaWire wire = KafkaWire.connect(server.localAddress())) {
            handshake(wire, (short) 0, "PLAIN");
            wire.write(KafkaWire.frame("\0alice\0alice-secret".getBytes(StandardCharsets.UTF_8)));
            assertArrayEquals(new byte[0], wire.readFrame());
            wire.send(ApiKeys.METADATA, (short) 12, 5, new MetadataRequestData());
            wire.receive(ApiKeys.METADATA, (short) 12, 5, MetadataResponse.class);
        }
        try (KafkaWire wire = KafkaWire.connect(server.localAddress())) {
            handshake(wire, (short) 0, "PLAIN");
            wire.write(KafkaWire.frame("\0alice\0wrong".getBytes(StandardCharsets.UTF_8)));
            assertTrue(wire.closedByServer());
        }
        assertEquals(
                List.of("User:alice"),
                handled.stream().map(r -> r.principal().toString()).toList());
    }

    @Test
    void anEndedSessionClosesTheConnectionUnlessReauthenticated() throws Exception {
        start(1);
        try (KafkaWire wire = KafkaWire.connect(server.localAddress())) {
            SaslAuthenticateResponse response = authenticate(wire, 1);
            assertEquals(1, response.data().sessionLifetimeMs());
            Thread.sleep(20); // past the 1 ms session
            // Re-authentication on the connection is taken after the session ended...
            assertEquals(1, authenticate(wire, 10).data().sessionLifetimeMs());
            Thread.sleep(20);
            // ...any other request is not.
            wire.send(ApiKeys.METADATA, (short) 12, 21, new MetadataRequestData());
            assertTrue(wire.closedByServer());
        }
        assertEquals(List.of(), List.copyOf(handled));
    }

    // The server may have closed the connection already: the rest of the frames go nowhere.
    private static void writeUnlessClosed(KafkaWire wire, byte[] bytes) {
        try {
            wire.write(bytes);
        } catch (IOException e) {
            // closed by the server
        }
    }

    private void assertAuthenticates() throws IOException {
        int before = handled.size();
        try (KafkaWire wire = KafkaWire.connect(server.localAddress())) {
            authenticate(wire, 1);
            wire.send(ApiKeys.METADATA, (short) 12, 9, new MetadataRequestData());
            wire.receive(ApiKeys.METADATA, (short) 12, 9, MetadataResponse.class);
        }
        assertEquals(before + 1, handled.size());
        assertEquals("User:alice", List.copyOf(handled).getLast().principal().toString());
    }

    private static SaslAuthenticateResponse authenticate(KafkaWire wire, int correlationId) throws IOException {
        handshake(wire, (short) 1, "PLAIN");
        wire.send(ApiKeys.SASL_AUTHENTICATE, (short) 2, correlationId + 1, token("alice", "alice-secret"));
        SaslAuthenticateResponse response =
                wire.receive(ApiKeys.SASL_AUTHENTICATE, (short) 2, correlationId + 1, SaslAuthenticateResponse.class);
        assertEquals(Errors.NONE, response.error(), response.data().errorMessage());
        return response;
    }

    private static void handshake(KafkaWire wire, short version, String mechanism) throws IOException {
        wire.send(ApiKeys.SASL_HANDSHAKE, version, 100, new SaslHandshakeRequestData().setMechanism(mechanism));
        SaslHandshakeResponse response =
                wire.receive(ApiKeys.SASL_HANDSHAKE, version, 100, SaslHandshakeResponse.class);
        assertEquals(Errors.NONE, response.error());
    }

    private static ApiMessage token(String user, String password) {
        return new SaslAuthenticateRequestData()
                .setAuthBytes(("\0" + user + "\0" + password).getBytes(StandardCharsets.UTF_8));
    }

    private static ApiVersionsRequestData apiVersions() {
        return new ApiVersionsRequestData().setClientSoftwareName("krabka-test").setClientSoftwareVersion("1");
    }
}
