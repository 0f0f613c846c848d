package io.krabka.kernel.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.tiered.RemoteTierFixture;
import io.krabka.spi.common.TopicIdPartition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * kafka-clients' own consumer and admin client over TCP against a tiered topic whose first segments are only in the
 * remote tier (the real {@code local} and {@code inmemory} plugins): the consumer reads from the earliest offset
 * across the remote/local boundary without noticing, and ListOffsets answers earliest, earliest-local (v8),
 * latest-tiered (v9) and timestamps in the remote tier.
 */
class TieredReadIT {

    private static final int TIERED_RECORDS = 90;
    private static final int LOCAL_RECORDS = 30;
    private static final long T0 = 1_700_000_000_000L;
    private static final TopicPartition ORDERS = new TopicPartition("orders", 0);

    @RegisterExtension
    final DataPlane plane = DataPlane.perTestTiered("orders", 1, Map.of("remote.storage.enable", "true"));

    @Test
    void aConsumerFromTheEarliestOffsetReadsAcrossTheTierBoundaryAndListOffsetsKnowsTheTiers() throws Exception {
        UnifiedLog log = plane.replicaManager
                .partition(new io.krabka.spi.common.TopicPartition("orders", 0))
                .orElseThrow()
                .log();
        produce(0, TIERED_RECORDS, log);
        plane.tier()
                .copyRolledSegments(
                        log,
                        new TopicIdPartition(
                                plane.topicId("orders"), new io.krabka.spi.common.TopicPartition("orders", 0)));
        RemoteTierFixture.dropLocalSegments(log);
        long localStart = log.localLogStartOffset();
        assertEquals(TIERED_RECORDS, localStart, "every produced record is tiered and gone from the local log");
        produce(TIERED_RECORDS, LOCAL_RECORDS, log);

        List<ConsumerRecord<String, String>> consumed = consumeAll();
        assertEquals(TIERED_RECORDS + LOCAL_RECORDS, consumed.size());
        for (int i = 0; i < consumed.size(); i++) {
            assertEquals(i, consumed.get(i).offset(), "no gap, no duplicate");
            assertEquals("v" + i, consumed.get(i).value());
            assertEquals(T0 + i, consumed.get(i).timestamp());
        }

        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, plane.bootstrap());
        try (Admin admin = Admin.create(props)) {
            assertEquals(0, offset(admin, OffsetSpec.earliest()));
            assertEquals(localStart, offset(admin, OffsetSpec.earliestLocal()));
            assertEquals(localStart - 1, offset(admin, OffsetSpec.latestTiered()));
            assertEquals(TIERED_RECORDS + LOCAL_RECORDS, offset(admin, OffsetSpec.latest()));
            assertEquals(42, offset(admin, OffsetSpec.forTimestamp(T0 + 42)), "a timestamp in the remote tier");
            assertEquals(100, offset(admin, OffsetSpec.forTimestamp(T0 + 100)), "a timestamp in the local log");
        }
    }

    // One batch per 10 records, a segment per 30: several remote segments, each of several batches.
    private void produce(int from, int count, UnifiedLog log) throws Exception {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, plane.bootstrap());
        props.put(ProducerConfig.LINGER_MS_CONFIG, "60000");
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            for (int i = from; i < from + count; i++) {
                producer.send(new ProducerRecord<>("orders", 0, T0 + i, "k" + i, "v" + i));
                if ((i + 1) % 10 == 0) {
                    producer.flush();
                }
                if ((i + 1) % 30 == 0) {
                    log.roll();
                }
            }
        }
    }

    private List<ConsumerRecord<String, String>> consumeAll() {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, plane.bootstrap());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        props.put(ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG, "300");
        List<ConsumerRecord<String, String>> consumed = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            consumer.assign(List.of(ORDERS));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (consumed.size() < TIERED_RECORDS + LOCAL_RECORDS && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(consumed::add);
            }
            assertTrue(consumer.position(ORDERS) >= TIERED_RECORDS + LOCAL_RECORDS);
        }
        return consumed;
    }

    private static long offset(Admin admin, OffsetSpec spec) throws Exception {
        return admin.listOffsets(Map.of(ORDERS, spec))
                .partitionResult(ORDERS)
                .get()
                .offset();
    }
}
