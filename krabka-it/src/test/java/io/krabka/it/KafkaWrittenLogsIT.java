package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.it.FileDump.AbortedTxnEntry;
import io.krabka.it.FileDump.ProducerEntry;
import io.krabka.it.FileDump.SnapshotDump;
import io.krabka.it.FileDump.TxnIndexDump;
import io.krabka.kernel.log.AbortedTxn;
import io.krabka.kernel.log.BatchMetadata;
import io.krabka.kernel.log.LogSegment;
import io.krabka.kernel.log.ProducerStateEntry;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.log.checkpoint.EpochEntry;
import io.krabka.kernel.log.checkpoint.OffsetCheckpointFile;
import io.krabka.kernel.record.LogBatch;
import io.krabka.kernel.record.RecordBatch;
import io.krabka.spi.common.TopicPartition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * Krabka reads the logs Kafka 4.4 wrote. Copies of {@link KafkaLogs}' log directories are opened by Krabka's
 * {@code LogManager}: the cleanly stopped one without any recovery, every partition read back record for record as
 * Kafka acknowledged it, with Kafka's batches, checkpoints, topic ids, epochs, producer state and aborted
 * transactions; the killed one recovered, keeping every acknowledged record and only whole valid batches after
 * them. After Krabka closes them, Kafka's DumpLogSegments finds nothing wrong.
 */
@ExtendWith(KafkaLogs.class)
class KafkaWrittenLogsIT {

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    static Path work;

    private static DumpLogSegments dumpLogSegments;

    @BeforeAll
    static void runner() throws IOException {
        dumpLogSegments = new DumpLogSegments(work.resolve("dump-log-segments"));
    }

    @Test
    void aCleanlyStoppedKafkaLogOpensWithoutRecoveryAndReadsAsAcknowledged(KafkaLog kafka) throws Exception {
        KafkaLog copy = kafka.copyTo(work.resolve("clean-copy"));
        Map<TopicPartition, Long> recoveryPoints =
                checkpoint(copy, OffsetCheckpointFile.RECOVERY_POINT_CHECKPOINT_FILE);
        Map<TopicPartition, Long> highWatermarks =
                checkpoint(copy, OffsetCheckpointFile.REPLICATION_OFFSET_CHECKPOINT_FILE);
        Map<TopicPartition, Long> logStartOffsets =
                checkpoint(copy, OffsetCheckpointFile.LOG_START_OFFSET_CHECKPOINT_FILE);
        try (KrabkaLogs krabka = new KrabkaLogs(copy.logDir(), copy.topics())) {
            assertFalse(Files.exists(copy.file(KafkaLog.CLEAN_SHUTDOWN)), "the marker goes once the logs are loaded");
            for (UnifiedLog log : krabka.manager.allLogs()) {
                assertEquals(List.of(), log.segmentsRecoveredAtLoad(), log::toString);
            }
            for (Map.Entry<TopicPartition, ProducedLog> produced :
                    copy.produced().entrySet()) {
                TopicPartition partition = produced.getKey();
                UnifiedLog log = krabka.manager.getLog(partition).orElseThrow();
                PartitionFiles files = copy.partition(partition);
                assertEquals(produced.getValue().entries(), KrabkaLogs.entries(log), partition::toString);
                assertSameBatches(DecodedPartition.decode(files), KrabkaLogs.batches(log), partition);
                assertEquals(recoveryPoints.get(partition), log.recoveryPoint(), partition::toString);
                assertEquals(highWatermarks.get(partition), log.highWatermark(), partition::toString);
                assertEquals(logStartOffsets.getOrDefault(partition, 0L), log.logStartOffset(), partition::toString);
                assertEquals(log.logEndOffset(), produced.getValue().entries().size(), partition::toString);
                assertEquals(Optional.of(topicId(files)), log.topicId().map(Object::toString), partition::toString);
                assertEquals(epochs(files), log.leaderEpochCache().epochEntries(), partition::toString);
                assertSameProducers(files, log, partition);
                assertSameAbortedTransactions(files, log, partition);
            }
        }
        List<Path> dumpable = new ArrayList<>();
        for (TopicPartition partition : copy.produced().keySet()) {
            dumpable.addAll(copy.partition(partition).dumpable());
        }
        DumpCheck check = dumpLogSegments.check(dumpable);
        assertEquals(List.of(), check.errors(), check::describe);
    }

    @Test
    void aKilledKafkaLogRecoversKeepingEveryAcknowledgedRecord(@KafkaLogs.Killed KafkaLog kafka) throws Exception {
        KafkaLog copy = kafka.copyTo(work.resolve("killed-copy"));
        try (KrabkaLogs krabka = new KrabkaLogs(copy.logDir(), copy.topics())) {
            assertTrue(
                    krabka.manager.allLogs().stream()
                            .anyMatch(log -> !log.segmentsRecoveredAtLoad().isEmpty()),
                    "no marker: the logs are recovered");
            for (Map.Entry<TopicPartition, ProducedLog> produced :
                    copy.produced().entrySet()) {
                TopicPartition partition = produced.getKey();
                UnifiedLog log = krabka.manager.getLog(partition).orElseThrow();
                List<LogEntry> expected = produced.getValue().entries();
                List<LogEntry> found = KrabkaLogs.entries(log);
                if (produced.getValue().complete()) {
                    assertEquals(expected, found, partition::toString);
                } else {
                    // Everything acknowledged, then only whole batches that were in flight (entries checks each CRC).
                    assertTrue(found.size() >= expected.size(), () -> partition + " lost acknowledged records");
                    assertEquals(expected, found.subList(0, expected.size()), partition::toString);
                }
                assertEquals(found.size(), log.logEndOffset(), partition::toString);
                assertEquals(
                        epochsOf(KrabkaLogs.batches(log)),
                        log.leaderEpochCache().epochEntries(),
                        partition::toString);
            }
        }
        KrabkaLogs.removeDeletedFiles(copy.logDir());
        List<Path> dumpable = new ArrayList<>();
        for (TopicPartition partition : copy.produced().keySet()) {
            dumpable.addAll(copy.partition(partition).dumpable());
        }
        DumpCheck check = dumpLogSegments.check(dumpable);
        assertEquals(List.of(), check.errors(), check::describe);
    }

    private static Map<TopicPartition, Long> checkpoint(KafkaLog log, String name) throws IOException {
        return new OffsetCheckpointFile(log.file(name)).read();
    }

    private static void assertSameBatches(DecodedPartition kafka, List<LogBatch> krabka, TopicPartition partition) {
        List<LoggedBatch> expected = kafka.batches();
        assertEquals(expected.size(), krabka.size(), partition::toString);
        for (int n = 0; n < expected.size(); n++) {
            LoggedBatch theirs = expected.get(n);
            RecordBatch ours = (RecordBatch) krabka.get(n);
            String what = partition + " batch " + n;
            assertEquals(theirs.baseOffset(), ours.baseOffset(), what);
            assertEquals(theirs.lastOffset(), ours.lastOffset(), what);
            assertEquals(theirs.sizeInBytes(), ours.sizeInBytes(), what);
            assertEquals(theirs.maxTimestamp(), ours.maxTimestamp(), what);
            assertEquals(theirs.partitionLeaderEpoch(), ours.partitionLeaderEpoch(), what);
            assertEquals(theirs.producerId(), ours.producerId(), what);
            assertEquals(
                    theirs.compression().name, ours.compressionType().name().toLowerCase(Locale.ROOT), what);
            assertEquals(theirs.timestampType().name(), ours.timestampType().name(), what);
        }
    }

    // partition.metadata as Kafka wrote it: "version: 0" and "topic_id: <id>".
    private static String topicId(PartitionFiles files) throws IOException {
        return Files.readAllLines(files.partitionMetadata())
                .get(1)
                .substring("topic_id: ".length())
                .trim();
    }

    // leader-epoch-checkpoint as Kafka wrote it: version, count, then "<epoch> <start offset>" lines.
    private static List<EpochEntry> epochs(PartitionFiles files) throws IOException {
        List<String> lines = Files.readAllLines(files.leaderEpochCheckpoint());
        return lines.subList(2, lines.size()).stream()
                .map(line -> line.trim().split("\\s+"))
                .map(fields -> new EpochEntry(Integer.parseInt(fields[0]), Long.parseLong(fields[1])))
                .toList();
    }

    // Where each epoch starts: the first batch carrying an epoch above the ones before.
    private static List<EpochEntry> epochsOf(List<LogBatch> batches) {
        List<EpochEntry> epochs = new ArrayList<>();
        for (LogBatch batch : batches) {
            RecordBatch v2 = (RecordBatch) batch;
            if (v2.partitionLeaderEpoch() >= 0
                    && (epochs.isEmpty()
                            || v2.partitionLeaderEpoch() > epochs.getLast().epoch())) {
                epochs.add(new EpochEntry(v2.partitionLeaderEpoch(), v2.baseOffset()));
            }
        }
        return epochs;
    }

    /** The producers of Kafka's latest snapshot, as DumpLogSegments reads it, are the producers Krabka loaded. */
    private static void assertSameProducers(PartitionFiles files, UnifiedLog log, TopicPartition partition)
            throws Exception {
        Map<Long, String> ours = new TreeMap<>();
        log.producerStateManager().activeProducers().forEach((id, entry) -> ours.put(id, describe(entry)));
        Map<Long, String> theirs = new TreeMap<>();
        if (!files.producerSnapshots().isEmpty()) {
            Path latest = files.producerSnapshots().getLast();
            DumpReport report = dumpLogSegments.dump(Set.of(), List.of(latest));
            assertEquals(List.of(), report.errors(), report::describe);
            for (ProducerEntry producer :
                    report.dump(latest, SnapshotDump.class).orElseThrow().producers()) {
                theirs.put(
                        producer.producerId(),
                        producer.producerEpoch() + "/" + producer.coordinatorEpoch() + "/"
                                + producer.currentTxnFirstOffset() + "/" + producer.lastTimestamp() + "/"
                                + producer.lastBatch()
                                        .map(b -> b.firstSequence() + ".." + b.lastSequence() + "@" + b.lastOffset()
                                                + "-" + b.offsetDelta() + "@" + b.timestamp())
                                        .orElse("none"));
            }
        }
        assertEquals(theirs, ours, partition::toString);
    }

    private static String describe(ProducerStateEntry entry) {
        List<BatchMetadata> batches = List.copyOf(entry.batchMetadata());
        String last = batches.isEmpty()
                ? "none"
                : batches.getLast().firstSeq() + ".." + entry.lastSeq() + "@"
                        + batches.getLast().lastOffset() + "-"
                        + batches.getLast().offsetDelta() + "@"
                        + batches.getLast().timestamp();
        return entry.producerEpoch() + "/" + entry.coordinatorEpoch() + "/" + entry.currentTxnFirstOffset() + "/"
                + entry.lastTimestamp() + "/" + last;
    }

    /** Krabka's transaction indexes hold what DumpLogSegments reads from Kafka's. */
    private static void assertSameAbortedTransactions(PartitionFiles files, UnifiedLog log, TopicPartition partition)
            throws Exception {
        List<Path> txnIndexes =
                files.segments().stream().flatMap(s -> s.txnIndex().stream()).toList();
        List<AbortedTxn> theirs = new ArrayList<>();
        if (!txnIndexes.isEmpty()) {
            DumpReport report = dumpLogSegments.dump(Set.of(), txnIndexes);
            for (Path file : txnIndexes) {
                for (AbortedTxnEntry entry :
                        report.dump(file, TxnIndexDump.class).orElseThrow().abortedTxns()) {
                    theirs.add(new AbortedTxn(
                            entry.producerId(), entry.firstOffset(), entry.lastOffset(), entry.lastStableOffset()));
                }
            }
        }
        List<AbortedTxn> ours = new ArrayList<>();
        for (LogSegment segment : log.logSegments()) {
            ours.addAll(segment.txnIndex().allAbortedTxns());
        }
        assertEquals(theirs, ours, partition::toString);
    }
}
