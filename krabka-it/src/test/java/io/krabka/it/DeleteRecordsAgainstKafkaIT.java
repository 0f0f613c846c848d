package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConsumerGroupOffsetsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * DeleteRecords on Krabka against Kafka 4.4 with the same scenario, through the Admin client and Kafka's own
 * {@code kafka-delete-records.sh} (DeleteRecordsCommand): records deleted before an offset, an offset lower than the
 * log start, the high watermark (-1), an offset beyond it, a compacted topic, an unknown partition (a client timeout on
 * both), an internal topic; every answer, low watermarks and errors with their messages, and the tool's output must be Kafka's.
 */
@ResourceLock(ReferenceKafka.BROKER_LOCK)
class DeleteRecordsAgainstKafkaIT {
    private static final String KAFKA = "4.4.0";

    @TempDir
    Path dir;

    @Test
    void krabkaAnswersAsKafka() throws Exception {
        Map<String, String> kafka;
        try (ReferenceKafka reference = ReferenceKafka.start(KAFKA, dir.resolve("kafka"), Map.of())) {
            kafka = scenario(reference.bootstrapServers(), dir.resolve("kafka-tools"));
        }
        // The scenario reaches the brokers: both failing alike would not be an answer.
        assertEquals("low watermark 40", kafka.get("before 40"), kafka.toString());
        assertEquals("0", kafka.get("tool exit"), kafka.toString());
        assertNotEquals("TimeoutException", kafka.get("internal topic"), kafka.toString());
        Map<String, String> krabka;
        try (KrabkaBroker broker = KrabkaBroker.start(dir.resolve("krabka"), Map.of())) {
            krabka = scenario(broker.bootstrapServers(), dir.resolve("krabka-tools"));
        }
        SideBySide.assertSameAnswers(kafka, krabka);
    }

    private static Map<String, String> scenario(String bootstrap, Path work) throws Exception {
        Map<String, String> answers = new LinkedHashMap<>();
        TopicPartition orders = new TopicPartition("orders", 0);
        // An unknown partition is waited for until the call's timeout, on both: a short one keeps the test short.
        try (Admin admin = Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                bootstrap,
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                "3000",
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG,
                "3000"))) {
            admin.createTopics(List.of(
                            new NewTopic("orders", 1, (short) 1),
                            new NewTopic("compacted", 1, (short) 1).configs(Map.of("cleanup.policy", "compact"))))
                    .all()
                    .get(1, TimeUnit.MINUTES);
            produce(bootstrap, "orders", 100);
            produce(bootstrap, "compacted", 5);
            answers.put("before 40", delete(admin, orders, 40));
            answers.put("before 10, below the start", delete(admin, orders, 10));
            answers.put("earliest", earliest(admin, orders));
            answers.put("beyond the high watermark", delete(admin, orders, 101));
            answers.put("compacted", delete(admin, new TopicPartition("compacted", 0), 1));
            answers.put("unknown partition", delete(admin, new TopicPartition("orders", 7), 1));
            // A committed offset makes __consumer_offsets exist, so the refusal is the broker's, not a client timeout.
            // Creating its partitions may take a loaded machine longer than the short timeout above.
            admin.alterConsumerGroupOffsets(
                            "g",
                            Map.of(orders, new OffsetAndMetadata(1)),
                            new AlterConsumerGroupOffsetsOptions().timeoutMs(60_000))
                    .all()
                    .get(1, TimeUnit.MINUTES);
            answers.put("internal topic", delete(admin, new TopicPartition("__consumer_offsets", 0), 0));

            Path offsets = Files.createDirectories(work).resolve("offsets.json");
            Files.writeString(
                    offsets, "{\"version\":1,\"partitions\":[{\"topic\":\"orders\",\"partition\":0,\"offset\":-1}]}");
            ToolRun tool = new KafkaTools(work, KAFKA, List.of())
                    .run(
                            "delete-records",
                            List.of(
                                    "org.apache.kafka.tools.DeleteRecordsCommand",
                                    "--bootstrap-server",
                                    bootstrap,
                                    "--offset-json-file",
                                    offsets.toString()),
                            null);
            answers.put("tool exit", String.valueOf(tool.exitCode()));
            answers.put("tool output", tool.out().strip());
            answers.put("earliest after the tool", earliest(admin, orders));
        }
        return answers;
    }

    private static String delete(Admin admin, TopicPartition partition, long beforeOffset) {
        try {
            return "low watermark "
                    + admin.deleteRecords(Map.of(partition, RecordsToDelete.beforeOffset(beforeOffset)))
                            .lowWatermarks()
                            .get(partition)
                            .get(1, TimeUnit.MINUTES)
                            .lowWatermark();
        } catch (ExecutionException e) {
            // A client's own timeout words its attempts and deadlines, which differ from run to run.
            return e.getCause() instanceof TimeoutException
                    ? "TimeoutException"
                    : e.getCause().getClass().getSimpleName() + ": "
                            + e.getCause().getMessage();
        } catch (Exception e) {
            return e.toString();
        }
    }

    private static String earliest(Admin admin, TopicPartition partition) throws Exception {
        return String.valueOf(admin.listOffsets(Map.of(partition, OffsetSpec.earliest()))
                .partitionResult(partition)
                .get(1, TimeUnit.MINUTES)
                .offset());
    }

    private static void produce(String bootstrap, String topic, int records) throws Exception {
        Properties props = new Properties();
        props.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (KafkaProducer<String, String> producer =
                new KafkaProducer<>(props, new StringSerializer(), new StringSerializer())) {
            for (int i = 0; i < records; i++) {
                producer.send(new ProducerRecord<>(topic, 0, "k" + (i % 3), "v" + i))
                        .get();
            }
        }
    }
}
