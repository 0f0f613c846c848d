package io.krabka.it;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;

/**
 * Has Apache Kafka 4.3.1 write a remote tier with its own LocalTieredStorage (from the kafka-storage test jar)
 * and TopicBasedRemoteLogMetadataManager: a topic of 1 MiB segments is filled by a {@link TieredWorkload}, and
 * the broker is stopped once every rolled segment has been copied.
 */
final class KafkaTierWriter {
    static final String KAFKA_VERSION = "4.3.1";
    /** The broker's {@code node.id}, which LocalTieredStorage gets as its {@code broker.id}. */
    static final int BROKER_ID = 1;

    private static final Duration TIERING_TIMEOUT = Duration.ofMinutes(5);

    private KafkaTierWriter() {}

    /**
     * Runs the broker in {@code workDir}, with the tier in {@code tierDir} (LocalTieredStorage's {@code dir}), and
     * produces the workload to partition 0 of {@code topic}.
     *
     * @return the log the workload produced, entry by entry
     */
    static List<LogEntry> write(Path workDir, Path tierDir, String topic)
            throws IOException, InterruptedException, ExecutionException {
        Files.createDirectories(tierDir);
        Map<String, String> tiered = tieredSettings(tierDir);
        try (ReferenceKafka kafka = ReferenceKafka.start(KAFKA_VERSION, workDir, tiered);
                Admin admin = Admin.create(Map.of(
                        AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                        kafka.bootstrapServers(),
                        AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                        60_000))) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1)
                            .configs(Map.of(
                                    "remote.storage.enable", "true",
                                    "segment.bytes", "1048576",
                                    // An offset index entry every few batches, so that lookups must scan past some.
                                    "index.interval.bytes", "40000",
                                    "local.retention.ms", "5000",
                                    "retention.ms", "-1"))))
                    .all()
                    .get();
            // Ten minutes back: Kafka rejects timestamps too far in the future, and some records go back in time.
            TieredWorkload workload =
                    new TieredWorkload(kafka.bootstrapServers(), topic, System.currentTimeMillis() - 600_000);
            workload.run();
            awaitTiered(kafka, admin, new TopicPartition(topic, 0));
            return workload.expected();
        }
    }

    /**
     * The settings of a Kafka broker tiering to LocalTieredStorage in {@code tierDir} (its {@code dir}) with the
     * TopicBasedRemoteLogMetadataManager, as Kafka's own test harness sets them, tasks every second.
     */
    static Map<String, String> tieredSettings(Path tierDir) {
        return Map.ofEntries(
                Map.entry("remote.log.storage.system.enable", "true"),
                Map.entry(
                        "remote.log.storage.manager.class.name",
                        "org.apache.kafka.server.log.remote.storage.LocalTieredStorage"),
                Map.entry("remote.log.storage.manager.impl.prefix", "rsm.config."),
                Map.entry("rsm.config.dir", tierDir.toString()),
                Map.entry("rsm.config.delete.on.close", "false"),
                Map.entry(
                        "remote.log.metadata.manager.class.name",
                        "org.apache.kafka.server.log.remote.metadata.storage.TopicBasedRemoteLogMetadataManager"),
                Map.entry("remote.log.metadata.manager.listener.name", "PLAINTEXT"),
                Map.entry("remote.log.metadata.manager.impl.prefix", "rlmm.config."),
                Map.entry("rlmm.config.remote.log.metadata.topic.replication.factor", "1"),
                Map.entry("rlmm.config.remote.log.metadata.topic.num.partitions", "1"),
                Map.entry("remote.log.manager.task.interval.ms", "1000"),
                Map.entry("log.retention.check.interval.ms", "1000"));
    }

    /**
     * Waits until Kafka reports, through ListOffsets' latest-tiered offset (KIP-1005), that the tier ends just
     * before the active segment, so every rolled segment is complete in the tier and no copy runs when the broker
     * stops.
     */
    private static void awaitTiered(ReferenceKafka kafka, Admin admin, TopicPartition partition)
            throws InterruptedException, IOException {
        Path partitionDir = kafka.logDir().resolve(partition.topic() + "-" + partition.partition());
        long deadline = System.nanoTime() + TIERING_TIMEOUT.toNanos();
        long tiered = -1;
        long active = -1;
        while (System.nanoTime() < deadline) {
            active = activeSegmentBaseOffset(partitionDir);
            try {
                tiered = admin.listOffsets(Map.of(partition, OffsetSpec.latestTiered()))
                        .partitionResult(partition)
                        .get(30, TimeUnit.SECONDS)
                        .offset();
            } catch (ExecutionException | TimeoutException e) {
                tiered = -1; // not answered yet: ask again
            }
            if (active > 0 && tiered == active - 1) {
                return;
            }
            Thread.sleep(1000);
        }
        throw new AssertionError("Kafka did not tier every rolled segment of " + partition + " within "
                + TIERING_TIMEOUT + ": tiered up to offset " + tiered + ", active segment at " + active
                + "; broker logs in " + kafka.logsDir());
    }

    /** The base offset of the newest segment in a partition's log directory, from the {@code .log} file names. */
    private static long activeSegmentBaseOffset(Path partitionDir) throws IOException {
        try (Stream<Path> files = Files.list(partitionDir)) {
            return files.map(f -> f.getFileName().toString())
                    .filter(n -> n.matches("\\d{20}\\.log"))
                    .mapToLong(n -> Long.parseLong(n.substring(0, 20)))
                    .max()
                    .orElse(-1);
        }
    }
}
