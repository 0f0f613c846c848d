package io.krabka.kernel.tiered;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.log.AppendOrigin;
import io.krabka.kernel.log.FetchIsolation;
import io.krabka.kernel.log.LogSegment;
import io.krabka.kernel.log.LogStartOffsetIncrementReason;
import io.krabka.kernel.log.OffsetOutOfRangeException;
import io.krabka.kernel.log.ProducerAppendInfo;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.record.Compression;
import io.krabka.kernel.record.ControlRecordType;
import io.krabka.kernel.record.EndTransactionMarker;
import io.krabka.kernel.record.RecordBatchBuilder;
import io.krabka.kernel.record.TimestampType;
import io.krabka.kernel.tiered.FaultyRemoteStorageManager.Fault;
import io.krabka.kernel.tiered.RemoteLogManagerMetrics.Counter;
import io.krabka.kernel.tiered.RemoteLogManagerMetrics.Gauge;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.storage.IndexType;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentMetadataUpdate;
import io.krabka.spi.storage.RemoteLogSegmentState;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import io.krabka.spi.storage.RemoteStorageException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The remote log manager's copies on a single-node broker with the real {@code local} and {@code inmemory}
 * plugins: what is copied, local retention after the copies, restart, failed copies. Every task runs on the test's
 * thread when the test moves the clock.
 */
class RemoteLogManagerTest {

    /** The files the local plugin writes per segment without a transaction index. */
    static final int FILES_PER_SEGMENT = 5;

    private static final Map<String, String> TIERED = Map.of("remote.storage.enable", "true");

    @TempDir
    Path dir;

    private TieredBroker broker;

    @AfterEach
    void close() throws IOException {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void everyRolledSegmentIsCopiedWithItsIndexesSnapshotAndEpochsByteForByte() throws Exception {
        broker = new TieredBroker(dir);
        TopicIdPartition tp = broker.topic("orders", TIERED);
        broker.append(tp, 10);
        broker.bumpLeaderEpoch("orders");
        broker.append(tp, 10);
        broker.log(tp).roll();
        broker.appendSegments(tp, 2, 2);

        broker.runTasks();

        UnifiedLog log = broker.log(tp);
        List<LogSegment> local = log.logSegments();
        List<RemoteLogSegmentMetadata> remote = broker.remoteSegments(tp);
        assertEquals(
                List.of(0L, 20L, 40L),
                remote.stream().map(RemoteLogSegmentMetadata::startOffset).toList());
        assertEquals(
                List.of(19L, 39L, 59L),
                remote.stream().map(RemoteLogSegmentMetadata::endOffset).toList());
        assertEquals(59, log.highestOffsetInRemoteStorage());
        assertEquals(new TreeMap<>(Map.of(0, 0L, 1, 10L)), remote.get(0).segmentLeaderEpochs());
        assertEquals(new TreeMap<>(Map.of(1, 20L)), remote.get(1).segmentLeaderEpochs());
        for (int i = 0; i < remote.size(); i++) {
            RemoteLogSegmentMetadata segment = remote.get(i);
            LogSegment source = local.get(i);
            assertEquals(RemoteLogSegmentState.COPY_SEGMENT_FINISHED, segment.state());
            assertEquals(source.size(), segment.segmentSizeInBytes());
            assertEquals(source.largestTimestamp(), segment.maxTimestampMs());
            assertTrue(segment.txnIdxEmpty());
            assertArrayEquals(Files.readAllBytes(source.log().file()), bytes(broker.rsm.fetchLogSegment(segment, 0)));
            assertArrayEquals(Files.readAllBytes(source.offsetIndex().file()), index(segment, IndexType.OFFSET));
            assertArrayEquals(Files.readAllBytes(source.timeIndex().file()), index(segment, IndexType.TIMESTAMP));
            assertArrayEquals(
                    Files.readAllBytes(log.producerStateManager()
                            .fetchSnapshot(segment.endOffset() + 1)
                            .orElseThrow()),
                    index(segment, IndexType.PRODUCER_SNAPSHOT));
            assertThrows(
                    RemoteResourceNotFoundException.class, () -> broker.rsm.fetchIndex(segment, IndexType.TRANSACTION));
        }
        // Kafka's checkpoint text: version 0, the entry count, then the epochs from the log start to the segment end.
        assertEquals(
                "0\n2\n0 0\n1 10\n", new String(index(remote.get(0), IndexType.LEADER_EPOCH), StandardCharsets.UTF_8));
        assertEquals(
                "0\n2\n0 0\n1 10\n", new String(index(remote.get(2), IndexType.LEADER_EPOCH), StandardCharsets.UTF_8));
        long copiedBytes =
                local.subList(0, 3).stream().mapToLong(LogSegment::size).sum();
        assertEquals(copiedBytes, broker.metrics().count(Counter.REMOTE_COPY_BYTES, "orders"));
        assertEquals(3, broker.metrics().totalCount(Counter.REMOTE_COPY_REQUESTS));
        assertEquals(0, broker.metrics().totalCount(Counter.REMOTE_COPY_ERRORS));
        assertEquals(0, broker.metrics().value(Gauge.REMOTE_COPY_LAG_SEGMENTS, "orders"));
        assertEquals(3 * FILES_PER_SEGMENT, broker.remoteFiles().size());

        // The active segment stays local until it rolls and the last stable offset passes it.
        broker.append(tp, 10);
        broker.runTasks();
        assertEquals(3, broker.remoteSegments(tp).size());
        assertEquals(copiedBytes, broker.metrics().value(Gauge.REMOTE_LOG_SIZE_BYTES, "orders"));
    }

    @Test
    void aSegmentWithAnAbortedTransactionIsCopiedWithItsTransactionIndex() throws Exception {
        broker = new TieredBroker(dir);
        TopicIdPartition tp = broker.topic("orders", TIERED);
        UnifiedLog log = broker.log(tp);
        long t = broker.time.millis();
        log.appendAsLeader(
                new RecordBatchBuilder(Compression.NONE, TimestampType.CREATE_TIME, 0)
                        .producer(42, (short) 0, 0)
                        .transactional(true)
                        .append(t, null, "x".getBytes(StandardCharsets.UTF_8))
                        .build(),
                0,
                AppendOrigin.CLIENT,
                ProducerAppendInfo.TV_UNKNOWN,
                log.maybeStartTransactionVerification(42, (short) 0, false));
        log.appendAsLeader(
                new RecordBatchBuilder(Compression.NONE, TimestampType.CREATE_TIME, 0)
                        .producer(42, (short) 0, -1)
                        .appendEndTxnMarker(t, new EndTransactionMarker(ControlRecordType.ABORT, 0))
                        .build(),
                0,
                AppendOrigin.COORDINATOR,
                (short) 0);
        log.updateHighWatermark(log.logEndOffset());
        log.roll();
        broker.appendSegments(tp, 1, 1);

        broker.runTasks();

        List<RemoteLogSegmentMetadata> remote = broker.remoteSegments(tp);
        assertEquals(
                List.of(0L, 2L),
                remote.stream().map(RemoteLogSegmentMetadata::startOffset).toList());
        assertFalse(remote.get(0).txnIdxEmpty());
        assertArrayEquals(
                Files.readAllBytes(log.logSegments().getFirst().txnIndex().file()),
                index(remote.get(0), IndexType.TRANSACTION));
        assertTrue(remote.get(1).txnIdxEmpty());
        assertEquals(2 * FILES_PER_SEGMENT + 1, broker.remoteFiles().size());
    }

    @Test
    void localRetentionDeletesOnlyCopiedSegmentsAndKeepsTheLogStart() throws Exception {
        broker = new TieredBroker(dir);
        TopicIdPartition tp =
                broker.topic("orders", Map.of("remote.storage.enable", "true", "local.retention.bytes", "0"));
        broker.appendSegments(tp, 3, 2);
        UnifiedLog log = broker.log(tp);

        broker.logManager.cleanupLogs();
        assertEquals(4, log.numberOfSegments(), "nothing is deleted before it is copied");

        broker.runTasks();
        broker.appendSegments(tp, 2, 1);
        broker.logManager.cleanupLogs();

        assertEquals(
                List.of(60L, 70L, 80L),
                log.logSegments().stream().map(LogSegment::baseOffset).toList(),
                "the copied segments went, the two not yet copied and the active one stay");
        assertEquals(0, log.logStartOffset());
        assertEquals(60, log.localLogStartOffset());
        assertThrows(OffsetOutOfRangeException.class, () -> log.read(59, 1000, FetchIsolation.HIGH_WATERMARK, true));
        assertEquals(
                60,
                log.read(60, 1000, FetchIsolation.HIGH_WATERMARK, true)
                        .fetchOffsetMetadata()
                        .messageOffset());

        broker.runTasks();
        broker.logManager.cleanupLogs();
        assertEquals(
                List.of(80L),
                log.logSegments().stream().map(LogSegment::baseOffset).toList());
        assertEquals(0, log.logStartOffset());
        assertEquals(
                List.of(0L, 20L, 40L, 60L, 70L),
                broker.remoteSegments(tp).stream()
                        .map(RemoteLogSegmentMetadata::startOffset)
                        .toList());
    }

    @Test
    void aRestartResumesWithoutGapOrDuplicateAndCleansUpACopyCutShort() throws Exception {
        broker = new TieredBroker(dir);
        TopicIdPartition tp =
                broker.topic("orders", Map.of("remote.storage.enable", "true", "local.retention.bytes", "0"));
        broker.appendSegments(tp, 2, 2);
        broker.runTasks();
        broker.logManager.cleanupLogs();
        broker.appendSegments(tp, 1, 2);
        broker.log(tp).maybeIncrementLogStartOffset(10, LogStartOffsetIncrementReason.CLIENT_RECORD_DELETION);
        // A crash in the middle of copying [40, 59]: its data is written, its metadata still COPY_SEGMENT_STARTED.
        RemoteLogSegmentMetadata cutShort = CopyInterruption.copyWithoutFinishing(broker, tp, 40);
        assertEquals(3 * FILES_PER_SEGMENT, broker.remoteFiles().size());

        broker.restart();

        UnifiedLog log = broker.log(tp);
        assertEquals(10, log.logStartOffset(), "the checkpointed log start stays below the first local segment");
        assertEquals(40, log.localLogStartOffset());
        List<RemoteLogSegmentMetadata> remote = broker.remoteSegments(tp);
        assertEquals(
                List.of(0L, 20L, 40L),
                remote.stream().map(RemoteLogSegmentMetadata::startOffset).toList());
        assertTrue(remote.stream().allMatch(s -> s.state() == RemoteLogSegmentState.COPY_SEGMENT_FINISHED));
        assertFalse(remote.stream().anyMatch(s -> s.remoteLogSegmentId().equals(cutShort.remoteLogSegmentId())));
        assertEquals(3 * FILES_PER_SEGMENT, broker.remoteFiles().size(), "the cut-short copy's files are gone");
        assertEquals(59, log.highestOffsetInRemoteStorage());

        broker.appendSegments(tp, 1, 2);
        broker.runTasks();
        assertContiguousFromZero(broker.remoteSegments(tp), 79);
        assertEquals(4 * FILES_PER_SEGMENT, broker.remoteFiles().size());
    }

    @Test
    void aDeletionCutShortBeyondTheRetainedSegmentsIsFinishedAfterARestart() throws Exception {
        broker = new TieredBroker(dir);
        TopicIdPartition tp = broker.topic("orders", TIERED);
        broker.appendSegments(tp, 2, 2);
        broker.runTasks();
        broker.appendSegments(tp, 1, 2);
        // The discard of a failed copy of [40, 59] stopped by a shutdown: DELETE_SEGMENT_STARTED stored, its data
        // still there. Retention keeps [0, 39], so it never reaches the segment behind them.
        RemoteLogSegmentMetadata cutShort = CopyInterruption.copyWithoutFinishing(broker, tp, 40);
        broker.rlmm
                .updateRemoteLogSegmentMetadata(new RemoteLogSegmentMetadataUpdate(
                        cutShort.remoteLogSegmentId(),
                        broker.time.millis(),
                        Optional.empty(),
                        RemoteLogSegmentState.DELETE_SEGMENT_STARTED,
                        TieredBroker.NODE))
                .get();
        assertEquals(3 * FILES_PER_SEGMENT, broker.remoteFiles().size());

        broker.restart();
        broker.runTasks();

        List<RemoteLogSegmentMetadata> remote = broker.remoteSegments(tp);
        assertFalse(
                remote.stream().anyMatch(s -> s.remoteLogSegmentId().equals(cutShort.remoteLogSegmentId())),
                "the deletion finished: " + remote);
        assertContiguousFromZero(remote, 59);
        assertEquals(3 * FILES_PER_SEGMENT, broker.remoteFiles().size(), "its files went, [40, 59] copied again");
    }

    @Test
    void failedCopiesAreCountedCleanedUpAndRetriedAndNoSegmentFinishesIncomplete() throws Exception {
        Map<Integer, Fault> faults = Map.of(2, Fault.FAIL_AFTER_DATA, 3, Fault.FAIL_BEFORE_DATA);
        broker = new TieredBroker(
                dir,
                Map.of(),
                rsm -> new FaultyRemoteStorageManager(rsm, attempt -> faults.getOrDefault(attempt, Fault.NONE)));
        TopicIdPartition tp = broker.topic("orders", TIERED);
        broker.appendSegments(tp, 3, 2);

        broker.runTasks();
        assertEquals(List.of(0L), finishedStarts(tp), "the second copy failed after writing its data");
        assertEquals(FILES_PER_SEGMENT, broker.remoteFiles().size(), "and its data was deleted again");
        assertEquals(19, broker.log(tp).highestOffsetInRemoteStorage());
        assertEquals(1, broker.metrics().count(Counter.REMOTE_COPY_ERRORS, "orders"));

        broker.runTasks();
        assertEquals(List.of(0L), finishedStarts(tp), "the third copy failed before writing");
        assertEquals(2, broker.metrics().count(Counter.REMOTE_COPY_ERRORS, "orders"));

        broker.runTasks();
        List<RemoteLogSegmentMetadata> remote = broker.remoteSegments(tp);
        assertContiguousFromZero(remote, 59);
        assertEquals(3 * FILES_PER_SEGMENT, broker.remoteFiles().size());
        assertEquals(5, broker.metrics().count(Counter.REMOTE_COPY_REQUESTS, "orders"));
        assertEquals(2, broker.metrics().totalCount(Counter.REMOTE_COPY_ERRORS));
        List<LogSegment> local = broker.log(tp).logSegments();
        for (int i = 0; i < remote.size(); i++) {
            assertArrayEquals(
                    Files.readAllBytes(local.get(i).log().file()), bytes(broker.rsm.fetchLogSegment(remote.get(i), 0)));
        }
    }

    @Test
    void customMetadataOverTheLimitDeletesTheCopyAndStopsThePartitionsCopies() throws Exception {
        broker = new TieredBroker(
                dir, Map.of(), rsm -> new FaultyRemoteStorageManager(rsm, attempt -> Fault.OVERSIZED_CUSTOM_METADATA));
        TopicIdPartition tp = broker.topic("orders", TIERED);
        broker.appendSegments(tp, 2, 1);

        broker.runTasks();
        broker.runTasks();

        assertEquals(List.of(), broker.remoteSegments(tp));
        assertEquals(List.of(), broker.remoteFiles());
        assertEquals(1, broker.metrics().count(Counter.REMOTE_COPY_REQUESTS, "orders"));
        assertEquals(-1, broker.log(tp).highestOffsetInRemoteStorage());
    }

    private List<Long> finishedStarts(TopicIdPartition tp) throws RemoteStorageException {
        return broker.remoteSegments(tp).stream()
                .filter(s -> s.state() == RemoteLogSegmentState.COPY_SEGMENT_FINISHED)
                .map(RemoteLogSegmentMetadata::startOffset)
                .toList();
    }

    private static void assertContiguousFromZero(List<RemoteLogSegmentMetadata> remote, long lastOffset) {
        long next = 0;
        for (RemoteLogSegmentMetadata segment : remote) {
            assertEquals(RemoteLogSegmentState.COPY_SEGMENT_FINISHED, segment.state(), segment.toString());
            assertEquals(next, segment.startOffset(), "no gap, no duplicate: " + remote);
            next = segment.endOffset() + 1;
        }
        assertEquals(lastOffset + 1, next);
        assertEquals(
                remote.size(),
                new HashSet<>(remote.stream().map(s -> s.remoteLogSegmentId()).toList()).size());
    }

    private byte[] index(RemoteLogSegmentMetadata segment, IndexType type) throws Exception {
        return bytes(broker.rsm.fetchIndex(segment, type));
    }

    private static byte[] bytes(InputStream in) throws IOException {
        try (in) {
            return in.readAllBytes();
        }
    }
}
