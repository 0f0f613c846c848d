package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.it.FileDump.LogDump;
import io.krabka.it.LogEntry.Data;
import io.krabka.kernel.log.AppendOrigin;
import io.krabka.kernel.log.FileChannelBatch;
import io.krabka.kernel.log.FileRecords;
import io.krabka.kernel.log.MetaPropertiesEnsemble;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.record.RecordBatch;
import io.krabka.kernel.record.TimestampType;
import io.krabka.spi.common.TopicPartition;
import io.krabka.spi.common.Uuid;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka reads the logs Krabka writes. Krabka's {@code LogManager} is given, through its produce path
 * ({@code appendAsLeader}), the very batches Kafka 4.4 stored for {@link KafkaLogs}' workload — every compression
 * type, idempotent and transactional producers with their markers, LogAppendTime, recompression, batches of the
 * size limit, rolls on size and on a full time index — each as a producer (or, for markers, the transaction
 * coordinator) sends it. Kafka's DumpLogSegments then finds nothing wrong in Krabka's files after a clean close, nor
 * after a kill and Krabka's recovery; and where the topic does not stamp its own time, Krabka's segments, indexes and
 * transaction indexes are Kafka's byte for byte.
 */
@ExtendWith(KafkaLogs.class)
class KrabkaWrittenLogsIT {

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path work;

    private static DumpLogSegments dumpLogSegments;

    @BeforeAll
    static void runner() throws IOException {
        dumpLogSegments = new DumpLogSegments(work.resolve("dump-log-segments"));
    }

    private static Path newLogDir(String name) throws IOException {
        Path dir = work.resolve(name);
        MetaPropertiesEnsemble.format(List.of(dir), "krabka-it-cluster", 1);
        return dir;
    }

    /** Appends every batch Kafka stored for each workload partition, in order, acknowledging each. */
    private static void replay(KafkaLog kafka, KrabkaLogs krabka) throws IOException {
        for (TopicSpec topic : kafka.topics()) {
            Uuid topicId = Uuid.randomUuid();
            for (TopicPartition partition : topic.topicPartitions()) {
                UnifiedLog log = krabka.manager.getOrCreateLog(
                        partition, Optional.of(topicId), LogConfig.fromProps(Map.of(), topic.configs()));
                for (PartitionFiles.SegmentFiles segment :
                        kafka.partition(partition).segments()) {
                    try (FileRecords records = FileRecords.open(segment.log())) {
                        for (FileChannelBatch stored : records.batches()) {
                            append(log, (RecordBatch) stored.loadFullBatch());
                        }
                    }
                }
            }
        }
    }

    // The stored batch as its sender sent it: base offset 0 from a producer (any from the coordinator), CreateTime.
    private static void append(UnifiedLog log, RecordBatch stored) throws IOException {
        ByteBuffer sent =
                ByteBuffer.allocate(stored.sizeInBytes()).put(stored.buffer()).flip();
        RecordBatch batch = RecordBatch.at(sent, 0, "sent", 0);
        boolean marker = batch.isControlBatch();
        if (!marker) {
            sent.putLong(RecordBatch.BASE_OFFSET_OFFSET, 0);
        }
        if (batch.timestampType() == TimestampType.LOG_APPEND_TIME) {
            batch.setMaxTimestamp(TimestampType.CREATE_TIME, batch.maxTimestamp());
        }
        long expectedBase = log.logEndOffset();
        long base = log.appendAsLeader(
                        sent,
                        stored.partitionLeaderEpoch(),
                        marker ? AppendOrigin.COORDINATOR : AppendOrigin.CLIENT,
                        (short) 0)
                .firstOffset();
        assertEquals(expectedBase, base, log::toString);
        assertEquals(stored.baseOffset(), base, "Krabka gives Kafka's offsets");
        log.updateHighWatermark(log.logEndOffset());
    }

    private static List<Path> dumpable(Path logDir, KafkaLog kafka) throws IOException {
        List<Path> files = new ArrayList<>();
        for (TopicPartition partition : kafka.produced().keySet()) {
            files.addAll(
                    PartitionFiles.scan(logDir.resolve(partition.toString())).dumpable());
        }
        return files;
    }

    @Test
    void krabkasLogsPassDumpLogSegmentsAndAreKafkasByteForByte(KafkaLog kafka) throws Exception {
        Path logDir = newLogDir("krabka-written");
        try (KrabkaLogs krabka = new KrabkaLogs(logDir, kafka.topics())) {
            replay(kafka, krabka);
        }
        assertTrue(Files.exists(logDir.resolve(KafkaLog.CLEAN_SHUTDOWN)));
        DumpCheck check = dumpLogSegments.check(dumpable(logDir, kafka));
        assertEquals(List.of(), check.errors(), check::describe);
        for (TopicPartition partition : kafka.produced().keySet()) {
            PartitionFiles ours = PartitionFiles.scan(logDir.resolve(partition.toString()));
            PartitionFiles theirs = kafka.partition(partition);
            List<LogEntry> expected = kafka.produced().get(partition).entries();
            List<LogEntry> decoded = DecodedPartition.decode(ours).records().stream()
                    .map(LoggedBatch.LoggedRecord::entry)
                    .toList();
            // Kafka reads every record at its offset, each batch valid.
            List<Long> dumped = new ArrayList<>();
            for (PartitionFiles.SegmentFiles segment : ours.segments()) {
                LogDump dump = check.deepIteration().log(segment.log());
                assertTrue(dump.batches().stream().allMatch(DumpedBatch::valid), segment.log()::toString);
                dump.batches().forEach(batch -> batch.records().forEach(record -> dumped.add(record.offset())));
            }
            assertEquals(LongStream.range(0, expected.size()).boxed().toList(), dumped, partition::toString);
            if (partition.topic().equals(KafkaLogWorkload.LOG_APPEND_TIME)) {
                // Krabka stamps its own clock: the same records at other times.
                assertEquals(withoutTimestamps(expected), withoutTimestamps(decoded), partition::toString);
                continue;
            }
            assertEquals(expected, decoded, partition::toString);
            assertEquals(
                    theirs.segments().stream()
                            .map(PartitionFiles.SegmentFiles::baseOffset)
                            .toList(),
                    ours.segments().stream()
                            .map(PartitionFiles.SegmentFiles::baseOffset)
                            .toList(),
                    partition::toString);
            for (int n = 0; n < theirs.segments().size(); n++) {
                PartitionFiles.SegmentFiles kafkaSegment = theirs.segments().get(n);
                PartitionFiles.SegmentFiles krabkaSegment = ours.segments().get(n);
                assertSameBytes(kafkaSegment.log(), krabkaSegment.log());
                assertSameBytes(kafkaSegment.offsetIndex(), krabkaSegment.offsetIndex());
                assertSameBytes(kafkaSegment.timeIndex(), krabkaSegment.timeIndex());
                assertEquals(
                        kafkaSegment.txnIndex().isPresent(),
                        krabkaSegment.txnIndex().isPresent(),
                        krabkaSegment.log()::toString);
                if (kafkaSegment.txnIndex().isPresent()) {
                    assertSameBytes(
                            kafkaSegment.txnIndex().get(),
                            krabkaSegment.txnIndex().get());
                }
            }
            assertSameBytes(theirs.leaderEpochCheckpoint(), ours.leaderEpochCheckpoint());
        }
    }

    @Test
    void krabkasLogsRecoveredAfterAKillPassDumpLogSegments(KafkaLog kafka) throws Exception {
        Path logDir = newLogDir("krabka-killed");
        Path copy = work.resolve("krabka-killed-copy");
        try (KrabkaLogs krabka = new KrabkaLogs(logDir, kafka.topics())) {
            replay(kafka, krabka);
            // The files as a kill -9 leaves them: active segments' indexes preallocated, nothing trimmed, no marker.
            try (Stream<Path> files = Files.walk(logDir)) {
                for (Path file : files.sorted().toList()) {
                    if (!file.getFileName().toString().equals(".lock")) {
                        Files.copy(file, copy.resolve(logDir.relativize(file).toString()));
                    }
                }
            }
        }
        assertFalse(Files.exists(copy.resolve(KafkaLog.CLEAN_SHUTDOWN)));
        try (KrabkaLogs recovered = new KrabkaLogs(copy, kafka.topics())) {
            assertTrue(
                    recovered.manager.allLogs().stream()
                            .allMatch(log -> !log.segmentsRecoveredAtLoad().isEmpty()),
                    "every log recovers its unflushed segments");
            for (TopicPartition partition : kafka.produced().keySet()) {
                List<LogEntry> found =
                        KrabkaLogs.entries(recovered.manager.getLog(partition).orElseThrow());
                List<LogEntry> expected = kafka.produced().get(partition).entries();
                if (partition.topic().equals(KafkaLogWorkload.LOG_APPEND_TIME)) {
                    assertEquals(withoutTimestamps(expected), withoutTimestamps(found), partition::toString);
                } else {
                    assertEquals(expected, found, partition::toString);
                }
            }
        }
        KrabkaLogs.removeDeletedFiles(copy);
        DumpCheck check = dumpLogSegments.check(dumpable(copy, kafka));
        assertEquals(List.of(), check.errors(), check::describe);
    }

    private static List<LogEntry> withoutTimestamps(List<LogEntry> entries) {
        return entries.stream()
                .map(e -> e instanceof Data d ? new Data(0, d.key(), d.value(), d.headers(), d.transactional()) : e)
                .toList();
    }

    private static void assertSameBytes(Path kafka, Path krabka) throws IOException {
        assertArrayEquals(Files.readAllBytes(kafka), Files.readAllBytes(krabka), krabka::toString);
    }
}
