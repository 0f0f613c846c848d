package io.krabka.kernel.group;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.krabka.kernel.coordinator.CoordinatorLogWriter;
import io.krabka.kernel.coordinator.CoordinatorRecordException;
import io.krabka.kernel.log.LogManager;
import io.krabka.kernel.log.LogManagerConfig;
import io.krabka.kernel.log.MetaPropertiesEnsemble;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.record.CompressionType;
import io.krabka.kernel.record.RecordBatchBuilder;
import io.krabka.kernel.record.TimestampType;
import io.krabka.kernel.scheduler.KafkaScheduler;
import io.krabka.spi.common.TopicPartition;
import io.krabka.spi.common.Uuid;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The coordinator's records written to a real compacted log of __consumer_offsets and loaded back. */
class OffsetsTopicLogTest {

    private static final String GROUP = "payments";

    @TempDir
    Path dir;

    private KafkaScheduler scheduler;
    private LogManager logManager;
    private UnifiedLog log;
    private final GroupCoordinatorConfig config = GroupCoordinatorConfig.DEFAULTS;
    private final OffsetsTopic topic = new OffsetsTopic(config, () -> 0);

    @BeforeEach
    void start() throws IOException {
        MetaPropertiesEnsemble.format(List.of(dir), "cluster-groups-test", 1);
        scheduler = new KafkaScheduler(1, "offsets-topic-test-");
        logManager = new LogManager(
                LogManagerConfig.fromProps(Map.of("log.dirs", dir.toString(), "node.id", "1")),
                name -> LogConfig.defaults(),
                scheduler,
                Clock.systemUTC());
        logManager.startup();
        log = logManager.getOrCreateLog(
                new TopicPartition(OffsetsTopic.NAME, topic.partitionFor(GROUP)),
                Optional.of(Uuid.randomUuid()),
                LogConfig.fromProps(
                        Map.of(),
                        Map.of(
                                "cleanup.policy",
                                "compact",
                                "compression.type",
                                "producer",
                                "max.message.bytes",
                                "2000")));
    }

    @AfterEach
    void stop() throws Exception {
        logManager.close();
        scheduler.shutdown();
    }

    private OffsetsTopicWriter writer(CompressionType compression) {
        return new OffsetsTopicWriter(
                new CoordinatorLogWriter(logManager, Clock.systemUTC()), topic, compression, partition -> 7);
    }

    private static CoordinatorRecord offset(int partition, long offset) {
        return new CoordinatorRecord.OffsetCommit(
                new OffsetCommitKey(GROUP, "orders", partition),
                new OffsetCommitValue(offset, 2, "meta", 1_700_000_000_000L, -1, Uuid.ZERO_UUID));
    }

    private List<CoordinatorRecord> load() throws IOException {
        List<CoordinatorRecord> loaded = new ArrayList<>();
        CoordinatorLoader.load(
                log,
                chunk -> chunk.forEach(entry -> {
                    if (entry instanceof CoordinatorLoader.LoadedRecord record) {
                        loaded.add(record.record());
                    }
                }));
        return loaded;
    }

    @Test
    void recordsWrittenInEveryCodecLoadBackInOrder() throws IOException {
        List<CoordinatorRecord> written = new ArrayList<>();
        int next = 0;
        for (CompressionType codec : CompressionType.values()) {
            List<CoordinatorRecord> batch = List.of(
                    offset(0, next),
                    offset(1, next + 1),
                    new CoordinatorRecord.OffsetCommit(new OffsetCommitKey(GROUP, "orders", 2), null));
            writer(codec).append(GROUP, batch);
            written.addAll(batch);
            next += 2;
        }
        assertEquals(log.logEndOffset(), log.highWatermark(), "the coordinator's appends are committed at once");
        assertEquals(7, log.latestEpoch().orElseThrow(), "the leader epoch of the partition");
        List<CoordinatorRecord> loaded = load();
        assertEquals(written.size(), loaded.size());
        for (int i = 0; i < written.size(); i++) {
            // Records holding arrays compare by content, through their encoding.
            assertArrayEquals(
                    CoordinatorRecordSerde.serializeKey(written.get(i)),
                    CoordinatorRecordSerde.serializeKey(loaded.get(i)));
            assertArrayEquals(
                    CoordinatorRecordSerde.serializeValue(written.get(i)),
                    CoordinatorRecordSerde.serializeValue(loaded.get(i)));
        }
    }

    @Test
    void aBatchTheLogRefusesIsTheCoordinatorsError() throws IOException {
        OffsetsTopicWriter writer = writer(CompressionType.NONE);
        String metadata = "x".repeat(3000);
        RecordTooLargeException tooLarge = assertThrows(
                RecordTooLargeException.class,
                () -> writer.append(
                        GROUP,
                        List.of(new CoordinatorRecord.OffsetCommit(
                                new OffsetCommitKey(GROUP, "orders", 0),
                                new OffsetCommitValue(1, -1, metadata, 1, -1, Uuid.ZERO_UUID)))));
        assertEquals(Errors.MESSAGE_TOO_LARGE, Errors.forException(tooLarge));
        assertEquals(0, log.logEndOffset(), "nothing was appended");

        logManager.deleteLog(log.topicPartition());
        assertEquals(
                Errors.NOT_COORDINATOR,
                Errors.forException(assertThrows(
                        org.apache.kafka.common.errors.ApiException.class,
                        () -> writer.append(GROUP, List.of(offset(0, 1))))));
    }

    @Test
    void aRecordThatDoesNotDecodeStopsTheLoadWithATypedError() throws IOException {
        writer(CompressionType.NONE).append(GROUP, List.of(offset(0, 1)));
        // A record of type 1 (an offset commit) whose value is cut short.
        byte[] key = CoordinatorRecordSerde.serializeKey(offset(0, 1));
        byte[] value = CoordinatorRecordSerde.serializeValue(offset(0, 1));
        log.appendAsLeader(
                new RecordBatchBuilder(io.krabka.kernel.record.Compression.NONE, TimestampType.CREATE_TIME, 0)
                        .append(1L, key, java.util.Arrays.copyOf(value, 5))
                        .build(),
                7,
                io.krabka.kernel.log.AppendOrigin.COORDINATOR,
                io.krabka.kernel.log.ProducerAppendInfo.TV_UNKNOWN);
        assertThrows(CoordinatorRecordException.class, this::load);
    }
}
