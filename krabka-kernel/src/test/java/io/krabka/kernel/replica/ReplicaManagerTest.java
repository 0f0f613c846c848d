package io.krabka.kernel.replica;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.log.AppendOrigin;
import io.krabka.kernel.log.FetchIsolation;
import io.krabka.kernel.log.LogManager;
import io.krabka.kernel.log.LogManagerConfig;
import io.krabka.kernel.log.MetaPropertiesEnsemble;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.PartitionRegistration;
import io.krabka.kernel.metadata.TopicImage;
import io.krabka.kernel.scheduler.KafkaScheduler;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.TopicPartition;
import io.krabka.spi.common.Uuid;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The replica manager as a metadata publisher: logs created, configured, re-epoched and deleted as images say. */
class ReplicaManagerTest {

    private static final int NODE = 1;
    private static final TopicPartition T0 = new TopicPartition("orders", 0);

    @TempDir
    Path dir;

    private KafkaScheduler scheduler;
    private LogManager logManager;
    private ReplicaManager replicaManager;
    private MetadataImage image = MetadataImage.EMPTY;

    @BeforeEach
    void start() throws IOException {
        Path logDir = dir.resolve("data");
        MetaPropertiesEnsemble.format(List.of(logDir), "replicaManagerTestAAAA", NODE);
        scheduler = new KafkaScheduler(1, "replica-manager-test-");
        logManager = new LogManager(
                LogManagerConfig.fromProps(Map.of("log.dirs", logDir.toString(), "node.id", "1")),
                topic -> LogConfig.defaults(),
                scheduler,
                InstantSource.system());
        logManager.startup();
        replicaManager = new ReplicaManager(
                new ReplicaManagerConfig(NODE, Map.of("log.retention.ms", "1234")), logManager, scheduler);
    }

    @AfterEach
    void stop() throws Exception {
        replicaManager.close();
        logManager.close();
        scheduler.shutdown();
    }

    private void publish(
            Map<String, TopicImage> topics,
            Map<String, Map<String, String>> configs,
            Map<String, String> brokerConfigs) {
        MetadataImage previous = image;
        image = new MetadataImage(
                previous.offset() + 1, Map.of(), topics, configs, brokerConfigs, Map.of(), Map.of(), 0);
        replicaManager.onMetadataUpdate(previous, image);
    }

    private static TopicImage topic(String name, Uuid id, int leaderEpoch, int... leaders) {
        Map<Integer, PartitionRegistration> partitions = new java.util.HashMap<>();
        for (int p = 0; p < leaders.length; p++) {
            partitions.put(
                    p,
                    new PartitionRegistration(
                            List.of(leaders[p]), List.of(leaders[p]), leaders[p], leaderEpoch, leaderEpoch));
        }
        return TopicImage.of(name, id, partitions);
    }

    private Errors append(TopicPartition partition, String value) {
        ByteBuffer records = MemoryRecords.withRecords(Compression.NONE, new SimpleRecord(value.getBytes()))
                .buffer();
        return replicaManager
                .appendRecords((short) -1, false, AppendOrigin.CLIENT, Map.of(partition, records))
                .get(partition)
                .error();
    }

    private UnifiedLog log(TopicPartition partition) {
        return replicaManager.partition(partition).orElseThrow().log();
    }

    @Test
    void newPartitionsGetLogsWithTheTopicConfigsOverTheBrokerDefaults() {
        Uuid id = Uuid.randomUuid();
        publish(
                Map.of("orders", topic("orders", id, 0, NODE, 2)),
                Map.of("orders", Map.of("retention.bytes", "999")),
                Map.of());
        UnifiedLog log = log(T0);
        assertEquals(Optional.of(id), log.topicId());
        assertEquals(1234, log.config().retentionMs());
        assertEquals(999, log.config().retentionBytes());
        assertTrue(replicaManager.partition(new TopicPartition("orders", 1)).isEmpty(), "led by node 2");
        assertTrue(logManager.getLog(new TopicPartition("orders", 1)).isEmpty());

        publish(image.topics(), Map.of("orders", Map.of("retention.bytes", "555")), Map.of("log.retention.ms", "777"));
        assertEquals(555, log.config().retentionBytes());
        assertEquals(777, log.config().retentionMs());
    }

    @Test
    void aNewLeaderEpochStartsAtTheLogEnd() {
        Uuid id = Uuid.randomUuid();
        publish(Map.of("orders", topic("orders", id, 0, NODE)), Map.of(), Map.of());
        assertEquals(Errors.NONE, append(T0, "a"));
        assertEquals(Errors.NONE, append(T0, "b"));
        publish(Map.of("orders", topic("orders", id, 3, NODE)), Map.of(), Map.of());
        assertEquals(3, replicaManager.partition(T0).orElseThrow().leaderEpoch());
        assertEquals(3, log(T0).latestEpoch().getAsInt());
        assertEquals(2, log(T0).endOffsetForEpoch(0).orElseThrow().endOffset());
        assertEquals(Errors.NONE, append(T0, "c"));
        assertEquals(3, log(T0).logEndOffset());
        assertEquals(3, log(T0).highWatermark());
    }

    @Test
    void deletedAndRecreatedTopicsLoseTheirLogs() throws IOException {
        Uuid first = Uuid.randomUuid();
        publish(Map.of("orders", topic("orders", first, 0, NODE)), Map.of(), Map.of());
        assertEquals(Errors.NONE, append(T0, "old"));

        Uuid second = Uuid.randomUuid();
        publish(Map.of("orders", topic("orders", second, 0, NODE)), Map.of(), Map.of());
        assertEquals(Optional.of(second), log(T0).topicId());
        assertEquals(0, log(T0).logEndOffset(), "a re-created topic starts empty");
        assertEquals(1, deleteDirs(), "the old log's directory is renamed for deletion");

        publish(Map.of(), Map.of(), Map.of());
        assertTrue(replicaManager.partition(T0).isEmpty());
        assertEquals(Errors.UNKNOWN_TOPIC_OR_PARTITION, append(T0, "gone"));
        assertEquals(2, deleteDirs());
    }

    private long deleteDirs() throws IOException {
        try (Stream<Path> files = Files.list(dir.resolve("data"))) {
            return files.filter(f -> f.getFileName().toString().endsWith("-delete"))
                    .count();
        }
    }

    @Test
    void closingAnswersWaitingFetchesAndLaterOnesAtOnce() {
        Uuid id = Uuid.randomUuid();
        publish(Map.of("orders", topic("orders", id, 0, NODE)), Map.of(), Map.of());
        FetchParams params = new FetchParams(-1, 600_000, 1, 1 << 20, FetchIsolation.HIGH_WATERMARK);
        List<FetchPartition> partitions =
                List.of(new FetchPartition(new TopicIdPartition(id, T0), 0, 1 << 20, Optional.empty()));
        CompletableFuture<List<LogReadResult>> waiting = replicaManager.fetchMessages(params, partitions);
        assertFalse(waiting.isDone());
        assertEquals(1, replicaManager.waitingFetches());
        replicaManager.close();
        assertEquals(Errors.NONE, waiting.join().get(0).error());
        assertEquals(0, waiting.join().get(0).records().sizeInBytes());
        assertTrue(replicaManager.fetchMessages(params, partitions).isDone());
        assertEquals(0, replicaManager.waitingFetches());
    }
}
