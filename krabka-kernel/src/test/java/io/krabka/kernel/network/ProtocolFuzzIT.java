package io.krabka.kernel.network;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.ApiMessageType;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.JoinGroupRequestData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.ApiVersionsResponse;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.RequestHeader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Thousands of hostile frames from fixed seeds: random bytes, truncated and oversized frames, wrong versions, and
 * bit-flipped requests of every API and version kafka-clients can write. Every frame is answered (at most one
 * response, every API's handler failing so that Kafka's error responses are encoded) or its connection is closed,
 * and the server keeps serving fresh connections.
 */
@ExtendWith(NettyLeakCheck.class)
class ProtocolFuzzIT {

    private static final int FRAMES_PER_SEED = 1500;
    private static final int MAX_SIZE = 64 * 1024;
    private static final int PROBE = 0x7eadbeef;
    /** Key, version, correlation id and the client id "fuzz": the bytes every template's header has. */
    private static final int HEADER_BYTES = 2 + 2 + 4 + 2 + 4;

    private static final List<byte[]> TEMPLATES = templates();

    private SocketServer server;
    private KafkaWire wire;
    private int answered;
    private int closed;

    /** Fails every request: each API answers with its error response (or closes, as acks=0 Produce). */
    private static final class Failing implements ApiHandler {
        private final ApiKeys apiKey;

        Failing(ApiKeys apiKey) {
            this.apiKey = apiKey;
        }

        @Override
        public ApiKeys apiKey() {
            return apiKey;
        }

        @Override
        public CompletableFuture<Response> handle(Request request) {
            throw new IllegalStateException("fuzzed");
        }
    }

    @BeforeEach
    void start() throws InterruptedException {
        List<ApiHandler> handlers = new ArrayList<>();
        for (ApiKeys key : ApiKeys.brokerApis()) {
            if (key != ApiKeys.API_VERSIONS && key.hasValidVersion()) {
                handlers.add(new Failing(key));
            }
        }
        server = Servers.start(
                Servers.config().withSocketRequestMaxBytes(MAX_SIZE), handlers.toArray(ApiHandler[]::new));
    }

    @AfterEach
    void stop() throws IOException {
        if (wire != null) {
            wire.close();
        }
        server.close();
    }

    @ParameterizedTest
    @ValueSource(longs = {1, 2, 3, 4})
    void everyFrameIsAnsweredOrClosesItsConnection(long seed) throws IOException {
        Random random = new Random(seed);
        for (int i = 0; i < FRAMES_PER_SEED; i++) {
            if (wire == null) {
                wire = KafkaWire.connect(server.localAddress());
            }
            int kind = random.nextInt(5);
            String what = "seed " + seed + ", frame " + i + ", kind " + kind;
            switch (kind) {
                case 0 -> expectAnsweredOrClosed(KafkaWire.frame(randomBytes(random, random.nextInt(200))), what);
                case 1 -> expectClosed(truncated(random), what);
                case 2 ->
                    expectClosed(
                            ByteBuffer.allocate(4)
                                    .putInt(MAX_SIZE + 1 + random.nextInt(1 << 30))
                                    .array(),
                            what);
                case 3 -> expectAnsweredOrClosed(KafkaWire.frame(wrongVersion(random)), what);
                default -> expectAnsweredOrClosed(KafkaWire.frame(bitFlipped(random)), what);
            }
            if (i % 100 == 0) {
                assertServes();
            }
        }
        assertServes();
        // Both outcomes are exercised: Kafka's error responses of many APIs, and closes.
        assertTrue(
                answered > FRAMES_PER_SEED / 20 && closed > FRAMES_PER_SEED / 20,
                answered + " frames answered, " + closed + " closed");
    }

    @Test
    void everyBrokerApiAtEveryVersionIsAnsweredWithItsErrorResponseOrClosedAsKafkaWould() throws IOException {
        List<String> wrong = new ArrayList<>();
        for (byte[] request : TEMPLATES) {
            ByteBuffer buffer = ByteBuffer.wrap(request);
            RequestHeader header = RequestHeader.parse(buffer);
            if (!ApiKeys.brokerApis().contains(header.apiKey())) {
                continue;
            }
            try (KafkaWire client = KafkaWire.connect(server.localAddress())) {
                client.write(KafkaWire.frame(request));
                boolean answered = client.readFrame() != null;
                if (answered != kafkaAnswers(header, buffer)) {
                    wrong.add(header.apiKey() + " v" + header.apiVersion() + (answered ? " answered" : " closed"));
                }
            }
        }
        assertEquals(List.of(), wrong);
    }

    /**
     * Whether Kafka answers a request whose handler fails: it closes where the version is not enabled (unstable,
     * as InitProducerId v6), where the body does not parse (a default DescribeAcls filter) and where the error has
     * no response (acks=0 Produce).
     */
    private static boolean kafkaAnswers(RequestHeader header, ByteBuffer body) {
        if (header.apiVersion() > header.apiKey().latestVersion(false)) {
            return false;
        }
        AbstractRequest request;
        try {
            request = AbstractRequest.parseRequest(header.apiKey(), header.apiVersion(), new ByteBufferAccessor(body))
                    .request;
        } catch (RuntimeException e) {
            return false;
        }
        return !(request instanceof ProduceRequest produce && produce.acks() == 0);
    }

    /** The frame, then an ApiVersions probe: the frame's response must come before the probe's, or a close. */
    private void expectAnsweredOrClosed(byte[] frame, String what) throws IOException {
        byte[] probe = KafkaWire.frame(
                KafkaWire.request(ApiKeys.API_VERSIONS, (short) 0, PROBE, "fuzz", new ApiVersionsRequestData()));
        wire.write(concat(frame, probe));
        byte[] first = wire.readFrame();
        if (first == null) {
            closed++;
            reconnect();
            return;
        }
        answered++;
        assertNotEquals(PROBE, ByteBuffer.wrap(first).getInt(), what + ": neither answered nor closed");
        byte[] second = wire.readFrame();
        if (second == null) {
            reconnect();
            return;
        }
        assertEquals(PROBE, ByteBuffer.wrap(second).getInt(), what + ": more than one response to one frame");
    }

    /** Bytes after which the server must close without answering. */
    private void expectClosed(byte[] bytes, String what) throws IOException {
        wire.write(bytes);
        wire.shutdownOutput();
        assertNull(wire.readFrame(), what);
        reconnect();
    }

    private void reconnect() throws IOException {
        wire.close();
        wire = null;
    }

    private void assertServes() throws IOException {
        try (KafkaWire fresh = KafkaWire.connect(server.localAddress())) {
            fresh.send(
                    ApiKeys.API_VERSIONS,
                    (short) 3,
                    1,
                    new ApiVersionsRequestData().setClientSoftwareName("fuzz").setClientSoftwareVersion("1"));
            assertEquals(
                    Errors.NONE.code(),
                    fresh.receive(ApiKeys.API_VERSIONS, (short) 3, 1, ApiVersionsResponse.class)
                            .data()
                            .errorCode());
        }
    }

    private static byte[] truncated(Random random) {
        byte[] request = TEMPLATES.get(random.nextInt(TEMPLATES.size()));
        byte[] frame = KafkaWire.frame(request);
        return Arrays.copyOf(frame, 4 + random.nextInt(request.length));
    }

    private static byte[] wrongVersion(Random random) {
        byte[] request = TEMPLATES.get(random.nextInt(TEMPLATES.size())).clone();
        ByteBuffer.wrap(request).putShort(2, (short) random.nextInt(1 << 16));
        return request;
    }

    /** A request with 1-4 bits flipped, mostly in the body (a flipped header mostly closes at once). */
    private static byte[] bitFlipped(Random random) {
        byte[] request = TEMPLATES.get(random.nextInt(TEMPLATES.size())).clone();
        int from = random.nextInt(4) == 0 || request.length <= HEADER_BYTES ? 0 : HEADER_BYTES;
        int flips = 1 + random.nextInt(4);
        for (int f = 0; f < flips; f++) {
            int bit = from * 8 + random.nextInt((request.length - from) * 8);
            request[bit / 8] ^= (byte) (1 << (bit % 8));
        }
        return request;
    }

    private static byte[] randomBytes(Random random, int length) {
        byte[] bytes = new byte[length];
        random.nextBytes(bytes);
        return bytes;
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] both = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, both, a.length, b.length);
        return both;
    }

    /** Requests of every API and version kafka-clients writes: defaults, and some with content. */
    private static List<byte[]> templates() {
        List<byte[]> templates = new ArrayList<>();
        int correlationId = 0;
        for (ApiKeys key : ApiKeys.values()) {
            if (!key.hasValidVersion()) {
                continue;
            }
            for (short version = key.oldestVersion(); version <= key.latestVersion(); version++) {
                for (ApiMessage body : bodies(key)) {
                    try {
                        templates.add(KafkaWire.request(key, version, correlationId++, "fuzz", body));
                    } catch (RuntimeException e) {
                        // a default this version cannot hold
                    }
                }
            }
        }
        return templates;
    }

    private static List<ApiMessage> bodies(ApiKeys key) {
        List<ApiMessage> bodies = new ArrayList<>();
        bodies.add(ApiMessageType.fromApiKey(key.id).newRequest());
        switch (key) {
            case PRODUCE ->
                bodies.add(new ProduceRequestData()
                        .setAcks((short) -1)
                        .setTimeoutMs(1000)
                        .setTopicData(new ProduceRequestData.TopicProduceDataCollection(List.of(
                                        new ProduceRequestData.TopicProduceData()
                                                .setName("orders")
                                                .setPartitionData(List.of(new ProduceRequestData.PartitionProduceData()
                                                        .setIndex(0)
                                                        .setRecords(MemoryRecords.withRecords(
                                                                Compression.NONE,
                                                                new SimpleRecord("k".getBytes(), "v".getBytes()))))))
                                .iterator())));
            case FETCH ->
                bodies.add(new FetchRequestData()
                        .setReplicaId(-1)
                        .setMaxBytes(1 << 20)
                        .setTopics(List.of(new FetchRequestData.FetchTopic()
                                .setTopic("orders")
                                .setPartitions(List.of(new FetchRequestData.FetchPartition()
                                        .setPartition(0)
                                        .setFetchOffset(5)
                                        .setPartitionMaxBytes(1 << 20))))));
            case METADATA ->
                bodies.add(new MetadataRequestData()
                        .setTopics(List.of(new MetadataRequestData.MetadataRequestTopic().setName("orders"))));
            case API_VERSIONS ->
                bodies.add(new ApiVersionsRequestData()
                        .setClientSoftwareName("fuzz")
                        .setClientSoftwareVersion("1.0"));
            case JOIN_GROUP ->
                bodies.add(new JoinGroupRequestData()
                        .setGroupId("g")
                        .setMemberId("m")
                        .setProtocolType("consumer")
                        .setProtocols(new JoinGroupRequestData.JoinGroupRequestProtocolCollection(
                                List.of(new JoinGroupRequestData.JoinGroupRequestProtocol()
                                                .setName("range")
                                                .setMetadata(new byte[] {1, 2, 3}))
                                        .iterator())));
            default -> {
                // the defaults only
            }
        }
        return bodies;
    }
}
