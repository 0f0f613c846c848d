package io.krabka.kernel.tiered;

import io.krabka.kernel.log.LogManager;
import io.krabka.kernel.log.LogManagerConfig;
import io.krabka.kernel.log.MetaPropertiesEnsemble;
import io.krabka.kernel.log.TestTime;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.PartitionRegistration;
import io.krabka.kernel.metadata.TopicImage;
import io.krabka.kernel.metrics.MetricsRegistry;
import io.krabka.kernel.record.Compression;
import io.krabka.kernel.record.MemoryRecords;
import io.krabka.kernel.record.RecordBatchBuilder;
import io.krabka.kernel.record.TimestampType;
import io.krabka.kernel.replica.ReplicaManager;
import io.krabka.kernel.replica.ReplicaManagerConfig;
import io.krabka.kernel.scheduler.MockScheduler;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.TopicPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.RemoteLogMetadataManager;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.spi.storage.RemoteStorageManager;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;

/**
 * A single-node broker's tiered storage, as the broker wires it: a formatted log directory, the log manager with
 * {@code remote.log.storage.system.enable}, the replica manager creating the logs from metadata images, the real
 * {@code local} and {@code inmemory} plugins loaded by the kernel's plugin discovery from their bundles, and the
 * remote log manager registered after the replica manager. Time and tasks move only when the test says
 * ({@link MockScheduler}). {@link #restart} closes everything cleanly and opens it again over the same
 * directories (the metadata manager's snapshot included).
 */
final class TieredBroker implements AutoCloseable {

    static final int NODE = 1;
    static final long TASK_INTERVAL_MS = 1_000;

    final TestTime time = new TestTime();
    final MockScheduler scheduler = new MockScheduler(time);
    /** The ids the remote log manager reported deleted, in order. */
    final List<Uuid> deletedSegments = new CopyOnWriteArrayList<>();
    /** The topics the remote log manager reported deleted, in order. */
    final List<String> deletedTopics = new CopyOnWriteArrayList<>();

    private final Path logDir;
    private final Path remoteDir;
    private final Path rlmmSnapshot;
    private final Map<String, Object> brokerProps;
    private final UnaryOperator<RemoteStorageManager> rsmWrapper;
    private final UnaryOperator<RemoteLogMetadataManager> rlmmWrapper;
    private final Map<String, TopicImage> topics = new HashMap<>();
    private final Map<String, Map<String, String>> topicConfigs = new HashMap<>();
    private MetadataImage image = MetadataImage.EMPTY;
    LogManager logManager;
    ReplicaManager replicaManager;
    RemoteStorageManager rsm;
    RemoteLogMetadataManager rlmm;
    RemoteLogManager remoteLogManager;
    /** Where the remote log manager publishes its metrics, anew at each start. */
    MetricsRegistry registry;

    /**
     * @param dir          the broker's root: data, remote tier and metadata snapshot go under it
     * @param rlmProps     remote log manager settings over the test's (task interval {@value #TASK_INTERVAL_MS} ms,
     *                     no retry backoff beyond it)
     * @param rsmWrapper   wraps the real storage manager (e.g. to make it fail); identity for none
     */
    TieredBroker(Path dir, Map<String, Object> rlmProps, UnaryOperator<RemoteStorageManager> rsmWrapper)
            throws IOException {
        this(dir, rlmProps, rsmWrapper, rlmm -> rlmm);
    }

    /** As above, the real metadata manager wrapped too. */
    TieredBroker(
            Path dir,
            Map<String, Object> rlmProps,
            UnaryOperator<RemoteStorageManager> rsmWrapper,
            UnaryOperator<RemoteLogMetadataManager> rlmmWrapper)
            throws IOException {
        this.logDir = dir.resolve("data");
        this.remoteDir = Files.createDirectories(dir.resolve("remote"));
        this.rlmmSnapshot = Files.createDirectories(dir.resolve("rlmm")).resolve("snapshot.json");
        this.rsmWrapper = rsmWrapper;
        this.rlmmWrapper = rlmmWrapper;
        MetaPropertiesEnsemble.format(List.of(logDir), "tieredBrokerTestAAAAAA", NODE);
        brokerProps = new HashMap<>(Map.of(
                "log.dirs",
                logDir.toString(),
                "node.id",
                String.valueOf(NODE),
                "remote.log.storage.system.enable",
                "true",
                "remote.log.storage.manager.class.name",
                "local",
                // The metadata in memory and its snapshot: these tests run no broker for the topic manager to reach.
                "remote.log.metadata.manager.class.name",
                "inmemory",
                "remote.log.manager.task.interval.ms",
                String.valueOf(TASK_INTERVAL_MS),
                "remote.log.manager.task.retry.backoff.ms",
                "1",
                "remote.log.manager.task.retry.backoff.max.ms",
                "1",
                "remote.log.manager.task.retry.jitter",
                "0",
                // The log manager's own periodic tasks run only when a test calls them.
                "log.initial.task.delay.ms",
                String.valueOf(100L * 24 * 3600 * 1000)));
        brokerProps.putAll(rlmProps);
        start();
    }

    TieredBroker(Path dir) throws IOException {
        this(dir, Map.of(), rsm -> rsm);
    }

    private void start() throws IOException {
        logManager = new LogManager(
                LogManagerConfig.fromProps(brokerProps),
                topic -> LogConfig.fromProps(brokerProps, topicConfigs.getOrDefault(topic, Map.of())),
                scheduler,
                time);
        logManager.startup();
        replicaManager = new ReplicaManager(new ReplicaManagerConfig(NODE, Map.of()), logManager, scheduler);
        RemoteLogManagerConfig config = RemoteLogManagerConfig.fromProps(brokerProps);
        rsm = rsmWrapper.apply(TieredPlugins.REGISTRY.createRemoteStorageManager(
                config.remoteStorageManagerClassName().orElseThrow(),
                Map.of("dir", remoteDir.toString(), "fsync.enable", false)));
        rlmm = rlmmWrapper.apply(TieredPlugins.REGISTRY.createRemoteLogMetadataManager(
                config.remoteLogMetadataManagerClassName(), Map.of("snapshot.path", rlmmSnapshot.toString())));
        registry = MetricsRegistry.unpublished();
        remoteLogManager = new RemoteLogManager(
                config,
                NODE,
                rsm,
                rlmm,
                logManager::getLog,
                scheduler,
                time,
                registry,
                deletedSegments::add,
                deletedTopics::add);
        image = MetadataImage.EMPTY;
        publish();
    }

    /** Closes the remote log manager (its metadata manager writes its snapshot) and the logs, then opens all again. */
    void restart() throws IOException {
        close();
        start();
    }

    /** Creates (or reconfigures) a topic with one partition led by this node. */
    TopicIdPartition topic(String name, Map<String, String> configs) {
        TopicImage existing = topics.get(name);
        Uuid id = existing != null ? existing.id() : Uuid.randomUuid();
        int leaderEpoch = existing != null ? existing.partitions().get(0).leaderEpoch() : 0;
        topics.put(
                name,
                TopicImage.of(
                        name,
                        id,
                        Map.of(
                                0,
                                new PartitionRegistration(
                                        List.of(NODE), List.of(NODE), NODE, leaderEpoch, leaderEpoch))));
        topicConfigs.put(name, Map.copyOf(configs));
        publish();
        return new TopicIdPartition(id, new TopicPartition(name, 0));
    }

    /** A new leader epoch for the topic's partition (this node stays the leader), as after a re-election. */
    void bumpLeaderEpoch(String name) {
        TopicImage existing = topics.get(name);
        int leaderEpoch = existing.partitions().get(0).leaderEpoch() + 1;
        topics.put(
                name,
                TopicImage.of(
                        name,
                        existing.id(),
                        Map.of(
                                0,
                                new PartitionRegistration(
                                        List.of(NODE), List.of(NODE), NODE, leaderEpoch, leaderEpoch))));
        publish();
    }

    void deleteTopic(String name) {
        topics.remove(name);
        topicConfigs.remove(name);
        publish();
    }

    private void publish() {
        MetadataImage previous = image;
        image = new MetadataImage(
                previous.offset() + 1, Map.of(), topics, topicConfigs, Map.of(), Map.of(), Map.of(), 0);
        replicaManager.onMetadataUpdate(previous, image);
        remoteLogManager.onMetadataUpdate(previous, image);
        scheduler.tick();
    }

    UnifiedLog log(TopicIdPartition partition) {
        return logManager.getLog(partition.topicPartition()).orElseThrow();
    }

    /** Appends one batch of {@code records} records stamped now, acknowledged at once (high watermark at the end). */
    void append(TopicIdPartition partition, int records) throws IOException {
        UnifiedLog log = log(partition);
        RecordBatchBuilder builder = new RecordBatchBuilder(Compression.NONE, TimestampType.CREATE_TIME, 0);
        for (int i = 0; i < records; i++) {
            builder.append(
                    time.millis(), null, ("value-" + log.logEndOffset() + "-" + i).getBytes(StandardCharsets.UTF_8));
        }
        log.appendAsLeader(
                MemoryRecords.readableRecords(builder.build(), "test", 0),
                log.latestEpoch().orElse(0));
        log.updateHighWatermark(log.logEndOffset());
    }

    /** Appends {@code segments} segments of {@code batches} batches of 10 records each, rolling after each. */
    void appendSegments(TopicIdPartition partition, int segments, int batches) throws IOException {
        for (int s = 0; s < segments; s++) {
            for (int b = 0; b < batches; b++) {
                append(partition, 10);
            }
            log(partition).roll();
        }
    }

    /** Runs the remote log manager's tasks once more: one task interval later. */
    void runTasks() {
        scheduler.advance(TASK_INTERVAL_MS);
    }

    /** The remote segments of a partition, every state, by start offset. */
    List<RemoteLogSegmentMetadata> remoteSegments(TopicIdPartition partition) throws RemoteStorageException {
        List<RemoteLogSegmentMetadata> segments = new ArrayList<>();
        rlmm.listRemoteLogSegments(partition).forEachRemaining(segments::add);
        return segments;
    }

    /** The segment files the remote tier holds (Kafka's LocalTieredStorage layout, which the plugin keeps). */
    List<Path> remoteFiles() throws IOException {
        Path tier = remoteDir.resolve("kafka-tiered-storage");
        if (!Files.exists(tier)) {
            return List.of();
        }
        try (var files = Files.walk(tier)) {
            return files.filter(Files::isRegularFile).sorted().toList();
        }
    }

    RemoteLogManagerMetrics metrics() {
        return remoteLogManager.metrics();
    }

    @Override
    public void close() throws IOException {
        remoteLogManager.close();
        try {
            rsm.close();
        } finally {
            rlmm.close();
        }
        replicaManager.close();
        logManager.close();
    }
}
