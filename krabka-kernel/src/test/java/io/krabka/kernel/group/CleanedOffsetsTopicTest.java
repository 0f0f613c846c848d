package io.krabka.kernel.group;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.coordinator.CoordinatorLogWriter;
import io.krabka.kernel.log.LogManager;
import io.krabka.kernel.log.LogManagerConfig;
import io.krabka.kernel.log.MetaPropertiesEnsemble;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.record.CompressionType;
import io.krabka.kernel.scheduler.KafkaScheduler;
import io.krabka.spi.common.TopicPartition;
import io.krabka.spi.common.Uuid;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The coordinator loads a {@code __consumer_offsets} log the cleaner compacted (the latest commit of each
 * partition, tombstones, groups deleted, the empty batches the cleaner may keep) into the same groups and offsets as
 * the log before it was cleaned.
 */
class CleanedOffsetsTopicTest {

    private static final String GROUP = "payments";

    @TempDir
    Path dir;

    @Test
    void aCleanedLogLoadsTheSameState() throws Exception {
        MetaPropertiesEnsemble.format(List.of(dir), "cluster-cleaned-offsets", 1);
        KafkaScheduler scheduler = new KafkaScheduler(1, "cleaned-offsets-test-");
        LogManager logManager = new LogManager(
                LogManagerConfig.fromProps(
                        Map.of("log.dirs", dir.toString(), "node.id", "1", "log.cleaner.backoff.ms", "10")),
                name -> LogConfig.defaults(),
                scheduler,
                Clock.systemUTC());
        logManager.startup();
        try {
            OffsetsTopic topic = new OffsetsTopic(GroupCoordinatorConfig.DEFAULTS, () -> 0);
            TopicPartition partition = new TopicPartition(OffsetsTopic.NAME, topic.partitionFor(GROUP));
            // Not cleaned until the test has written everything.
            UnifiedLog log = logManager.getOrCreateLog(partition, Optional.of(Uuid.randomUuid()), config(1.0));
            CoordinatorLogWriter logWriter = new CoordinatorLogWriter(logManager, Clock.systemUTC());
            OffsetsTopicWriter writer = new OffsetsTopicWriter(logWriter, topic, CompressionType.NONE, p -> 0);
            for (int round = 0; round < 200; round++) {
                CompressionType codec = CompressionType.values()[round % CompressionType.values().length];
                new OffsetsTopicWriter(logWriter, topic, codec, p -> 0)
                        .append(GROUP, List.of(offset(GROUP, 0, round), offset(GROUP, 1, 2L * round)));
                if (round % 50 == 49) {
                    log.roll();
                }
            }
            writer.append(
                    GROUP, List.of(new CoordinatorRecord.OffsetCommit(new OffsetCommitKey(GROUP, "orders", 1), null)));
            // A group of the same partition, deleted.
            String gone = "gone";
            for (int i = 0; topic.partitionFor(gone) != partition.partition(); i++) {
                gone = "gone-" + i;
            }
            writer.append(gone, List.of(offset(gone, 0, 5)));
            writer.append(
                    gone,
                    List.of(
                            new CoordinatorRecord.OffsetCommit(new OffsetCommitKey(gone, "orders", 0), null),
                            new CoordinatorRecord.GroupMetadata(new GroupMetadataKey(gone), null)));
            log.roll();
            writer.append(GROUP, List.of(offset(GROUP, 0, 999)));
            long before = count(log);
            Map<String, String> state = replay(log);

            logManager.updateTopicConfig(OffsetsTopic.NAME, config(0.01));
            long activeBase = log.activeSegment().baseOffset();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (logManager.cleaner().orElseThrow().allCleanerCheckpoints().getOrDefault(partition, 0L)
                    < activeBase) {
                assertTrue(System.nanoTime() < deadline, "cleaned within a minute");
                Thread.sleep(10);
            }

            assertEquals(state, replay(log), "the same groups and offsets");
            long after = count(log);
            assertTrue(after < 10 && before > 400, "records before and after the cleaning: " + before + ", " + after);
        } finally {
            logManager.close();
            scheduler.shutdown();
        }
    }

    private static LogConfig config(double minCleanableRatio) {
        return LogConfig.fromProps(
                Map.of(),
                Map.of(
                        "cleanup.policy",
                        "compact",
                        "compression.type",
                        "producer",
                        "min.cleanable.dirty.ratio",
                        String.valueOf(minCleanableRatio)));
    }

    private static CoordinatorRecord offset(String group, int partition, long offset) {
        return new CoordinatorRecord.OffsetCommit(
                new OffsetCommitKey(group, "orders", partition),
                new OffsetCommitValue(offset, 2, "meta", 1_700_000_000_000L, -1, Uuid.ZERO_UUID));
    }

    private static long count(UnifiedLog log) throws Exception {
        long[] count = {0};
        CoordinatorLoader.load(log, records -> count[0] += records.size());
        return count[0];
    }

    /** The state the records leave, as the coordinator replays them: each key's last value, tombstones removing it. */
    private static Map<String, String> replay(UnifiedLog log) throws Exception {
        List<CoordinatorRecord> records = new ArrayList<>();
        CoordinatorLoader.load(log, chunk -> {
            for (CoordinatorLoader.Loaded loaded : chunk) {
                if (loaded instanceof CoordinatorLoader.LoadedRecord record) {
                    records.add(record.record());
                }
            }
        });
        Map<String, String> state = new LinkedHashMap<>();
        HexFormat hex = HexFormat.of();
        for (CoordinatorRecord record : records) {
            String key = hex.formatHex(CoordinatorRecordSerde.serializeKey(record));
            if (record.isTombstone()) {
                state.remove(key);
            } else {
                state.put(key, hex.formatHex(CoordinatorRecordSerde.serializeValue(record)));
            }
        }
        return state;
    }
}
