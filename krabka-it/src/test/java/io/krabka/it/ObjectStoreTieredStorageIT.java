package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Tiered storage end to end on an object store: Krabka's broker (the distribution, in its own process) with an
 * object-store plugin and the {@code inmemory} metadata manager, driven by the real Java client. Closed segments
 * move to the bucket, one object per artifact under the layout restore and verify read, the local log shrinks to its
 * active segment, a consumer from the earliest offset reads every record before and after a restart, and deleting
 * the topic empties its part of the bucket. Each backend's subclass gives the plugin's settings and lists the bucket.
 */
abstract class ObjectStoreTieredStorageIT {
    /** The key prefix of the test servers' buckets, which are the test's own. */
    static final String PREFIX = "krabka-it";

    private static final Set<String> REQUIRED =
            Set.of("log", "index", "timeindex", "snapshot", "leader_epoch_checkpoint");

    @TempDir
    Path work;

    /** The broker settings that select the plugin and point it at the test's bucket under {@link #prefix()}. */
    abstract Map<String, String> tierSettings();

    /** The plugin's key prefix in the bucket. */
    String prefix() {
        return PREFIX;
    }

    /** Every key in the test's bucket under {@code prefix}. */
    abstract List<String> keys(String prefix) throws Exception;

    @Test
    void closedSegmentsGoToTheBucketAreReadBackAcrossARestartAndLeaveWithTheirTopic() throws Exception {
        Map<String, String> settings = new HashMap<>(tierSettings());
        settings.putAll(Map.of(
                "remote.log.storage.system.enable",
                "true",
                "remote.log.metadata.manager.class.name",
                "inmemory",
                "remote.log.manager.task.interval.ms",
                "500",
                "log.retention.check.interval.ms",
                "500"));
        TopicPartition partition = new TopicPartition("objects", 0);
        long records = TieredRecords.count(24);
        try (KrabkaBroker broker = KrabkaBroker.start(work.resolve("broker"), settings)) {
            TopicIdPartition idPartition;
            try (Admin admin = admin(broker)) {
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
                idPartition = new TopicIdPartition(
                        Uuid.fromString(admin.describeTopics(List.of(partition.topic()))
                                .allTopicNames()
                                .get(1, TimeUnit.MINUTES)
                                .get(partition.topic())
                                .topicId()
                                .toString()),
                        partition.topic(),
                        0);
            }
            TieredRecords.produce(broker.bootstrapServers(), partition, 0, records, n -> System.currentTimeMillis());
            Path partitionDir = broker.logDir().resolve("objects-0");
            TieredRecords.await("only the active segment left locally, the rest in the bucket", () -> {
                List<Path> logs = logs(partitionDir);
                return logs.size() == 1 && latestTiered(broker, partition) == base(logs.getFirst()) - 1;
            });
            long activeBase = base(logs(partitionDir).getFirst());

            List<RemoteLogSegmentMetadata> finished = RemoteTier.inState(
                    RemoteTier.segments(broker.tieredStorageDir(), idPartition, work),
                    RemoteLogSegmentState.COPY_SEGMENT_FINISHED);
            long next = 0;
            for (RemoteLogSegmentMetadata segment : finished) {
                assertEquals(next, segment.startOffset(), "no gap, no overlap: " + finished);
                next = segment.endOffset() + 1;
            }
            assertEquals(activeBase, next);
            String partitionPrefix = prefix() + "/" + partition.topic() + "-0-" + idPartition.topicId() + "/";
            Set<String> expected = new TreeSet<>();
            for (RemoteLogSegmentMetadata segment : finished) {
                String name = partitionPrefix
                        + "%020d-%s."
                                .formatted(
                                        segment.startOffset(),
                                        segment.remoteLogSegmentId().id());
                REQUIRED.forEach(suffix -> expected.add(name + suffix));
            }
            assertEquals(
                    expected,
                    new TreeSet<>(keys(partitionPrefix)),
                    "one object per artifact of every finished segment, nothing else");

            TieredRecords.assertReadsExactly(broker.bootstrapServers(), partition, 0, records);
            assertEquals(0, broker.stop());
            broker.start();
            TieredRecords.assertReadsExactly(broker.bootstrapServers(), partition, 0, records);
            assertTrue(TieredStorageIT.counter(broker.metrics(), "remotefetchbytespersec_count", "objects") > 0);

            try (Admin admin = admin(broker)) {
                admin.deleteTopics(List.of(partition.topic())).all().get(1, TimeUnit.MINUTES);
            }
            TieredRecords.await(
                    "the bucket emptied of the deleted topic",
                    () -> keys(partitionPrefix).isEmpty());
        }
    }

    private static Admin admin(KrabkaBroker broker) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
    }

    private static long latestTiered(KrabkaBroker broker, TopicPartition partition) throws Exception {
        try (Admin admin = admin(broker)) {
            return admin.listOffsets(Map.of(partition, OffsetSpec.latestTiered()))
                    .partitionResult(partition)
                    .get(1, TimeUnit.MINUTES)
                    .offset();
        }
    }

    private static List<Path> logs(Path partitionDir) throws java.io.IOException {
        try (Stream<Path> files = Files.list(partitionDir)) {
            return files.filter(f -> f.getFileName().toString().matches("\\d{20}\\.log"))
                    .sorted()
                    .collect(Collectors.toList());
        }
    }

    private static long base(Path segment) {
        return Long.parseLong(segment.getFileName().toString().substring(0, 20));
    }
}
