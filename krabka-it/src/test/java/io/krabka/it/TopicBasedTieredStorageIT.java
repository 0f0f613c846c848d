package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.server.log.remote.metadata.storage.RemoteLogMetadataTopicPartitioner;
import org.apache.kafka.server.log.remote.metadata.storage.serialization.RemoteLogMetadataSerde;
import org.apache.kafka.server.log.remote.storage.RemoteLogMetadata;
import org.apache.kafka.server.log.remote.storage.RemoteLogSegmentMetadataUpdate;
import org.apache.kafka.server.log.remote.storage.RemoteLogSegmentState;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Krabka's broker (the distribution, in its own process) tiering with the {@code topic} metadata manager, selected
 * as a Kafka broker's {@code server.properties} selects Kafka's: segments move to the {@code local} tier, a restart
 * resumes from the manager's local snapshot and serves every record, most from the tier, and tiers new segments; and
 * every event in {@code __remote_log_metadata} is one Kafka's own serde reads, in the metadata partition Kafka's own
 * partitioner picks.
 */
class TopicBasedTieredStorageIT {
    private static final Pattern SEGMENT = Pattern.compile("(\\d{20})\\.log");

    @TempDir
    Path work;

    private KrabkaBroker broker;

    @AfterEach
    void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void tiersWithKafkasTopicBasedManagerRestartsFromItsSnapshotAndServesEveryRecord() throws Exception {
        broker = KrabkaBroker.start(
                work.resolve("broker"),
                Map.of(
                        "remote.log.storage.system.enable",
                        "true",
                        "remote.log.storage.manager.class.name",
                        "local",
                        "rsm.config.dir",
                        Files.createDirectories(work.resolve("tier")).toString(),
                        "remote.log.metadata.manager.class.name",
                        "org.apache.kafka.server.log.remote.metadata.storage.TopicBasedRemoteLogMetadataManager",
                        "remote.log.metadata.manager.listener.name",
                        "PLAINTEXT",
                        "rlmm.config.remote.log.metadata.topic.replication.factor",
                        "1",
                        "remote.log.manager.task.interval.ms",
                        "500",
                        "log.retention.check.interval.ms",
                        "500"));
        TopicPartition partition = new TopicPartition("tiered", 0);
        TopicIdPartition idPartition = createTieredTopic(partition);
        long first = TieredRecords.count(8);
        TieredRecords.produce(broker.bootstrapServers(), partition, 0, first, n -> System.currentTimeMillis());
        long activeBase = awaitOnlyTheActiveSegmentLocally(partition, first);

        assertEquals(0, broker.stop());
        assertTrue(Files.isRegularFile(broker.tieredStorageDir().resolve("remote-log-metadata-topic.snapshot")));
        broker.start();
        TieredRecords.assertReadsExactly(broker.bootstrapServers(), partition, 0, first);
        assertEquals(activeBase, offset(partition, OffsetSpec.earliestLocal()));

        long all = first + TieredRecords.count(4);
        TieredRecords.produce(broker.bootstrapServers(), partition, first, all, n -> System.currentTimeMillis());
        long newActiveBase = awaitOnlyTheActiveSegmentLocally(partition, all);
        assertTrue(newActiveBase > activeBase, newActiveBase + " after " + activeBase);
        TieredRecords.assertReadsExactly(broker.bootstrapServers(), partition, 0, all);

        List<ConsumerRecord<byte[], RemoteLogMetadata>> events = metadataEvents();
        int expected = new RemoteLogMetadataTopicPartitioner(50).metadataPartition(idPartition);
        assertTrue(
                events.stream()
                        .allMatch(e -> e.partition() == expected
                                && e.value().topicIdPartition().equals(idPartition)),
                events::toString);
        long finished = events.stream()
                .filter(e -> e.value() instanceof RemoteLogSegmentMetadataUpdate update
                        && update.state() == RemoteLogSegmentState.COPY_SEGMENT_FINISHED)
                .count();
        assertEquals(tieredSegmentFiles(), finished, events::toString);
    }

    /** Every event in the metadata topic, read with Kafka's own serde. */
    private List<ConsumerRecord<byte[], RemoteLogMetadata>> metadataEvents() throws Exception {
        RemoteLogMetadataSerde serde = new RemoteLogMetadataSerde();
        List<ConsumerRecord<byte[], RemoteLogMetadata>> events = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                        ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName(),
                        ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName()));
                Admin admin = admin()) {
            int partitions = admin.describeTopics(List.of("__remote_log_metadata"))
                    .allTopicNames()
                    .get(1, TimeUnit.MINUTES)
                    .get("__remote_log_metadata")
                    .partitions()
                    .size();
            assertEquals(50, partitions);
            List<TopicPartition> all = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                all.add(new TopicPartition("__remote_log_metadata", p));
            }
            consumer.assign(all);
            consumer.seekToBeginning(all);
            Map<TopicPartition, Long> ends = consumer.endOffsets(all);
            long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
            while (all.stream().anyMatch(tp -> consumer.position(tp) < ends.get(tp)) && System.nanoTime() < deadline) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                    events.add(new ConsumerRecord<>(
                            record.topic(),
                            record.partition(),
                            record.offset(),
                            record.key(),
                            serde.deserialize(record.value())));
                }
            }
        }
        return events;
    }

    /** The segments in the local tier, each copied once. */
    private long tieredSegmentFiles() throws Exception {
        try (Stream<Path> files = Files.walk(work.resolve("tier"))) {
            return files.filter(f -> f.getFileName().toString().endsWith(".log"))
                    .count();
        }
    }

    private TopicIdPartition createTieredTopic(TopicPartition partition) throws Exception {
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic(partition.topic(), 1, (short) 1)
                            .configs(Map.of(
                                    "remote.storage.enable",
                                    "true",
                                    "local.retention.bytes",
                                    "1",
                                    "segment.bytes",
                                    "1048576"))))
                    .all()
                    .get(1, TimeUnit.MINUTES);
            Uuid id = admin.describeTopics(List.of(partition.topic()))
                    .allTopicNames()
                    .get(1, TimeUnit.MINUTES)
                    .get(partition.topic())
                    .topicId();
            return new TopicIdPartition(id, partition);
        }
    }

    private long awaitOnlyTheActiveSegmentLocally(TopicPartition partition, long records) throws Exception {
        TieredRecords.await("only the active segment left locally, the rest tiered", () -> {
            List<Path> local = localSegments(partition);
            return local.size() == 1
                    && offset(partition, OffsetSpec.latestTiered()) == base(local.getFirst()) - 1
                    && offset(partition, OffsetSpec.latest()) == records;
        });
        return base(localSegments(partition).getFirst());
    }

    private List<Path> localSegments(TopicPartition partition) throws Exception {
        try (Stream<Path> files =
                Files.list(broker.logDir().resolve(partition.topic() + "-" + partition.partition()))) {
            return files.filter(f -> SEGMENT.matcher(f.getFileName().toString()).matches())
                    .sorted()
                    .toList();
        }
    }

    private static long base(Path segment) {
        Matcher matcher = SEGMENT.matcher(segment.getFileName().toString());
        if (!matcher.matches()) {
            throw new AssertionError("not a segment: " + segment);
        }
        return Long.parseLong(matcher.group(1));
    }

    private long offset(TopicPartition partition, OffsetSpec spec) throws Exception {
        try (Admin admin = admin()) {
            return admin.listOffsets(Map.of(partition, spec))
                    .partitionResult(partition)
                    .get(1, TimeUnit.MINUTES)
                    .offset();
        }
    }

    private Admin admin() {
        return Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                broker.bootstrapServers(),
                AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                (int) Duration.ofMinutes(1).toMillis()));
    }
}
