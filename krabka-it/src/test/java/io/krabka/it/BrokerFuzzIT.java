package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.ApiMessageType;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Thousands of hostile frames, from fixed seeds, against Krabka's whole broker run as a user runs it: requests of
 * every API at every stable version (empty ones, and Produce and Fetch of a real topic) with bytes flipped, cut
 * short or appended, random bytes, unknown versions, oversized and negative frame sizes. Each frame is answered at
 * most once or its connection closed (an acks=0 Produce alone may go unanswered; a Fetch or a group request whose
 * flipped timeouts park it may be held); the broker keeps serving; and the topic the frames wrote to holds the
 * records produced before, every later batch whole and readable.
 */
class BrokerFuzzIT {
    private static final String TOPIC = "fuzz-target";
    private static final int FRAMES_PER_SEED = 1500;
    private static final int PROBE = 0x7eadbeef;
    private static final int ORIGINALS = 500;
    /** Requests Kafka may hold (long polls, rebalances): a probe not answered within this is a parked request. */
    private static final Duration PARKED = Duration.ofSeconds(3);

    private static final Duration ANSWER = Duration.ofSeconds(60);
    private static final Set<ApiKeys> MAY_PARK = Set.of(ApiKeys.FETCH, ApiKeys.JOIN_GROUP, ApiKeys.SYNC_GROUP);

    private static KrabkaBroker broker;
    private static InetSocketAddress address;

    @BeforeAll
    static void start() throws Exception {
        broker = KrabkaBroker.start(
                Path.of(System.getProperty(KafkaLogs.WORK_PROPERTY), "broker-fuzz"),
                Map.of("socket.request.max.bytes", "1048576", "group.initial.rebalance.delay.ms", "0"));
        String[] hostPort = broker.bootstrapServers().split(":");
        address = new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1]));
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1))).all().get(1, TimeUnit.MINUTES);
        }
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()),
                new ByteArraySerializer(),
                new ByteArraySerializer())) {
            for (int i = 0; i < ORIGINALS; i++) {
                producer.send(new ProducerRecord<>(TOPIC, original(i)));
            }
        }
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void everyHostileFrameIsAnsweredOrClosedAndNothingPartialIsWritten() throws Exception {
        List<byte[]> templates = templates();
        int answered = 0;
        int closed = 0;
        for (long seed = 1; seed <= 2; seed++) {
            Random random = new Random(seed);
            KafkaWire wire = null;
            for (int i = 0; i < FRAMES_PER_SEED; i++) {
                if (wire == null) {
                    wire = new KafkaWire(address);
                }
                byte[] template = templates.get(random.nextInt(templates.size()));
                int kind = random.nextInt(6);
                String what = "seed " + seed + ", frame " + i + ", kind " + kind + " of " + header(template);
                byte[] frame = switch (kind) {
                    case 0 -> random(random);
                    case 1 -> truncated(random, template);
                    case 2 ->
                        ByteBuffer.allocate(8)
                                .putInt(
                                        random.nextBoolean()
                                                ? -1 - random.nextInt(1000)
                                                : 1_048_577 + random.nextInt(1 << 30))
                                .putInt(0)
                                .array();
                    case 3 -> wrongVersion(random, template);
                    case 4 -> appended(random, template);
                    default -> flipped(random, template);
                };
                Outcome outcome = send(wire, frame, template, what);
                if (outcome == Outcome.ANSWERED) {
                    answered++;
                } else {
                    closed++;
                    wire.close();
                    wire = null;
                }
            }
            if (wire != null) {
                wire.close();
            }
        }
        assertTrue(answered > 300 && closed > 300, answered + " frames answered, " + closed + " closed");
        assertTopicWhole();
    }

    private enum Outcome {
        ANSWERED,
        CLOSED
    }

    /** Sends the frame and an ApiVersions probe; the frame's answer, if any, comes first, then the probe's. */
    private static Outcome send(KafkaWire wire, byte[] frame, byte[] template, String what) throws IOException {
        byte[] probe = KafkaWire.frame(ApiKeys.API_VERSIONS, (short) 0, PROBE, new ApiVersionsRequestData());
        boolean mayPark =
                MAY_PARK.contains(ApiKeys.forId(ByteBuffer.wrap(template).getShort(4)));
        try {
            wire.write(frame);
            wire.write(probe);
            byte[] first = wire.read(mayPark ? PARKED : ANSWER);
            if (first == null) {
                return Outcome.CLOSED;
            }
            int correlationId = ByteBuffer.wrap(first).getInt();
            if (correlationId == PROBE) {
                assertTrue(isAcksZeroProduce(frame), what + ": neither answered nor closed");
                return Outcome.ANSWERED;
            }
            byte[] second = wire.read(ANSWER);
            if (second == null) {
                return Outcome.CLOSED;
            }
            assertEquals(PROBE, ByteBuffer.wrap(second).getInt(), what + ": more than one answer to one frame");
            return Outcome.ANSWERED;
        } catch (SocketTimeoutException e) {
            if (!mayPark) {
                fail(what + ": no answer and no close within " + ANSWER);
            }
            return Outcome.CLOSED;
        }
    }

    /** The records produced first are there, and every offset after them holds a whole, readable record. */
    private static void assertTopicWhole() throws Exception {
        TopicPartition partition = new TopicPartition(TOPIC, 0);
        long end;
        try (Admin admin = admin()) {
            assertEquals(
                    1, admin.describeCluster().nodes().get(1, TimeUnit.MINUTES).size(), "the broker serves");
            end = admin.listOffsets(Map.of(partition, OffsetSpec.latest()))
                    .all()
                    .get(1, TimeUnit.MINUTES)
                    .get(partition)
                    .offset();
        }
        List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        broker.bootstrapServers(),
                        ConsumerConfig.CHECK_CRCS_CONFIG,
                        "true"),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long deadline = System.nanoTime() + ANSWER.toNanos();
            while (consumer.position(partition) < end && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(records::add);
            }
        }
        assertTrue(records.size() >= ORIGINALS, records.size() + " records");
        for (int i = 0; i < records.size(); i++) {
            assertEquals(i, records.get(i).offset(), "no offset skipped");
            if (i < ORIGINALS) {
                assertArrayEquals(original(i), records.get(i).value(), "record " + i);
            }
        }
        assertEquals(end, records.size(), "every record up to the end read");
    }

    /** Every broker API at every stable version with its default body; Produce and Fetch also of the topic. */
    private static List<byte[]> templates() {
        List<byte[]> templates = new ArrayList<>();
        int correlationId = 1;
        for (ApiKeys key : ApiKeys.brokerApis()) {
            for (short version = key.oldestVersion(); version <= key.latestVersion(false); version++) {
                templates.add(KafkaWire.frame(
                        key,
                        version,
                        correlationId++,
                        ApiMessageType.fromApiKey(key.id).newRequest()));
            }
        }
        for (short version = 3; version <= ApiKeys.PRODUCE.latestVersion(false); version++) {
            if (version < 13) {
                templates.add(KafkaWire.frame(ApiKeys.PRODUCE, version, correlationId++, produce()));
            }
        }
        for (short version = 4; version < 13; version++) {
            templates.add(KafkaWire.frame(ApiKeys.FETCH, version, correlationId++, fetch()));
        }
        return templates;
    }

    private static ProduceRequestData produce() {
        ProduceRequestData.TopicProduceDataCollection topics = new ProduceRequestData.TopicProduceDataCollection();
        topics.add(new ProduceRequestData.TopicProduceData()
                .setName(TOPIC)
                .setPartitionData(List.of(new ProduceRequestData.PartitionProduceData()
                        .setIndex(0)
                        .setRecords(MemoryRecords.withRecords(
                                Compression.NONE,
                                new SimpleRecord(
                                        "k".getBytes(StandardCharsets.UTF_8),
                                        "fuzzed".getBytes(StandardCharsets.UTF_8)),
                                new SimpleRecord("v".getBytes(StandardCharsets.UTF_8)))))));
        return new ProduceRequestData().setAcks((short) 1).setTimeoutMs(1000).setTopicData(topics);
    }

    private static FetchRequestData fetch() {
        return new FetchRequestData()
                .setReplicaId(-1)
                .setMaxWaitMs(0)
                .setMinBytes(0)
                .setMaxBytes(1 << 20)
                .setTopics(List.of(new FetchRequestData.FetchTopic()
                        .setTopic(TOPIC)
                        .setPartitions(List.of(new FetchRequestData.FetchPartition()
                                .setPartition(0)
                                .setFetchOffset(0)
                                .setPartitionMaxBytes(1 << 16)))));
    }

    private static boolean isAcksZeroProduce(byte[] frame) {
        try {
            ByteBuffer buffer = ByteBuffer.wrap(frame, 4, frame.length - 4).slice();
            RequestHeader header = RequestHeader.parse(buffer);
            AbstractRequest request = AbstractRequest.parseRequest(
                            header.apiKey(), header.apiVersion(), new ByteBufferAccessor(buffer))
                    .request;
            return request instanceof ProduceRequest produce && produce.acks() == 0;
        } catch (RuntimeException e) {
            return false;
        }
    }

    private static String header(byte[] template) {
        ByteBuffer buffer = ByteBuffer.wrap(template);
        return ApiKeys.forId(buffer.getShort(4)) + " v" + buffer.getShort(6);
    }

    private static byte[] random(Random random) {
        byte[] body = new byte[random.nextInt(200)];
        random.nextBytes(body);
        return withSize(body);
    }

    /** Cut inside the body: the frame size says so, so the body is short of what its fields need. */
    private static byte[] truncated(Random random, byte[] template) {
        int bodyStart = 4 + 8;
        int length = template.length <= bodyStart + 1 ? 0 : random.nextInt(template.length - bodyStart);
        byte[] body = new byte[8 + length];
        System.arraycopy(template, 4, body, 0, body.length);
        return withSize(body);
    }

    private static byte[] wrongVersion(Random random, byte[] template) {
        byte[] frame = template.clone();
        ByteBuffer.wrap(frame).putShort(6, (short) (ByteBuffer.wrap(template).getShort(6) + 1 + random.nextInt(50)));
        return frame;
    }

    private static byte[] appended(Random random, byte[] template) {
        byte[] body = new byte[template.length - 4 + 1 + random.nextInt(64)];
        System.arraycopy(template, 4, body, 0, template.length - 4);
        for (int i = template.length - 4; i < body.length; i++) {
            body[i] = (byte) random.nextInt();
        }
        return withSize(body);
    }

    /** One to three bytes flipped after the api key, version and correlation id. */
    private static byte[] flipped(Random random, byte[] template) {
        byte[] frame = template.clone();
        if (frame.length > 12) {
            for (int flips = 1 + random.nextInt(3); flips > 0; flips--) {
                frame[12 + random.nextInt(frame.length - 12)] ^= (byte) (1 << random.nextInt(8));
            }
        }
        return frame;
    }

    private static byte[] withSize(byte[] body) {
        return ByteBuffer.allocate(4 + body.length)
                .putInt(body.length)
                .put(body)
                .array();
    }

    private static byte[] original(int i) {
        return ("original-" + i).getBytes(StandardCharsets.UTF_8);
    }

    private static Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
    }
}
