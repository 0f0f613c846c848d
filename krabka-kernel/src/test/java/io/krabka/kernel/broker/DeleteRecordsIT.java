package io.krabka.kernel.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.OffsetOutOfRangeException;
import org.apache.kafka.common.errors.PolicyViolationException;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * kafka-clients' {@code Admin.deleteRecords} against DeleteRecords: the log start offset moves up to the offset asked
 * for (or the high watermark), never down, consumers and ListOffsets start there, it survives a restart; an offset
 * above the high watermark and a compacted-only topic are refused as Kafka refuses them.
 */
class DeleteRecordsIT {

    private static final TopicPartition ORDERS = new TopicPartition("orders", 0);

    @RegisterExtension
    final DataPlane plane = DataPlane.perTest("orders", 1, Map.of());

    @Test
    void theLogStartMovesUpToTheOffsetNeverDownAndSurvivesARestart() throws Exception {
        produce("orders", 100);
        try (Admin admin = admin()) {
            assertEquals(40, lowWatermark(admin, ORDERS, 40));
            assertEquals(40, lowWatermark(admin, ORDERS, 10), "a lower offset leaves the log start where it is");
            assertEquals(40, earliest(admin, ORDERS));
        }
        assertEquals(40, consumeFromEarliest().getFirst().offset());

        plane.restart(true);
        try (Admin admin = admin()) {
            assertEquals(40, earliest(admin, ORDERS), "after a restart");
            assertEquals(100, lowWatermark(admin, ORDERS, RecordsToDelete.beforeOffset(-1)), "-1: the high watermark");
            assertEquals(100, earliest(admin, ORDERS));
        }
    }

    @Test
    void anOffsetAboveTheHighWatermarkAndACompactedTopicAreRefused() throws Exception {
        plane.createTopic("compacted", 1, Map.of("cleanup.policy", "compact"));
        produce("orders", 10);
        try (Admin admin = admin()) {
            ExecutionException beyond = assertThrows(ExecutionException.class, () -> lowWatermark(admin, ORDERS, 11));
            assertInstanceOf(OffsetOutOfRangeException.class, beyond.getCause());
            ExecutionException compacted = assertThrows(
                    ExecutionException.class, () -> lowWatermark(admin, new TopicPartition("compacted", 0), 0));
            assertInstanceOf(PolicyViolationException.class, compacted.getCause());
            assertTrue(compacted.getCause().getMessage().contains("configured policy"), compacted.getMessage());
            assertEquals(0, earliest(admin, ORDERS), "nothing deleted");
        }
    }

    private long lowWatermark(Admin admin, TopicPartition partition, long beforeOffset) throws Exception {
        return lowWatermark(admin, partition, RecordsToDelete.beforeOffset(beforeOffset));
    }

    private static long lowWatermark(Admin admin, TopicPartition partition, RecordsToDelete records) throws Exception {
        return admin.deleteRecords(Map.of(partition, records))
                .lowWatermarks()
                .get(partition)
                .get()
                .lowWatermark();
    }

    private static long earliest(Admin admin, TopicPartition partition) throws Exception {
        return admin.listOffsets(Map.of(partition, OffsetSpec.earliest()))
                .partitionResult(partition)
                .get()
                .offset();
    }

    private Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, plane.bootstrap()));
    }

    private void produce(String topic, int records) throws Exception {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, plane.bootstrap());
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < records; i++) {
                producer.send(new ProducerRecord<>(topic, 0, "k" + i, "v" + i)).get();
            }
        }
    }

    private List<ConsumerRecord<String, String>> consumeFromEarliest() {
        Properties props = new Properties();
        props.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, plane.bootstrap());
        props.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        List<ConsumerRecord<String, String>> read = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer =
                new KafkaConsumer<>(props, new StringDeserializer(), new StringDeserializer())) {
            consumer.assign(List.of(ORDERS));
            // Not a measurement: the bound only keeps a broker that serves nothing from hanging the build.
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (read.isEmpty() && System.nanoTime() < deadline) {
                consumer.poll(Duration.ofMillis(200)).forEach(read::add);
            }
        }
        assertTrue(!read.isEmpty(), "something to read from the log start");
        return read;
    }
}
