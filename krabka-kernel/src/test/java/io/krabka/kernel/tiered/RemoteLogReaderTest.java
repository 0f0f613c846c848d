package io.krabka.kernel.tiered;

import static io.krabka.kernel.tiered.RemoteTierFixture.batch;
import static io.krabka.kernel.tiered.RemoteTierFixture.batches;
import static io.krabka.kernel.tiered.RemoteTierFixture.bytes;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.log.AbortedTxn;
import io.krabka.kernel.log.AppendOrigin;
import io.krabka.kernel.log.FetchDataInfo;
import io.krabka.kernel.log.FetchIsolation;
import io.krabka.kernel.log.LogSegment;
import io.krabka.kernel.log.OffsetOutOfRangeException;
import io.krabka.kernel.log.ProducerAppendInfo;
import io.krabka.kernel.log.ProducerStateManagerConfig;
import io.krabka.kernel.log.TimestampAndOffset;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.record.ControlRecordType;
import io.krabka.kernel.record.LogBatch;
import io.krabka.kernel.scheduler.KafkaScheduler;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteStorageException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Reads from a remote tier of the real {@code local} and {@code inmemory} plugins holding a log's three copied
 * segments, whose local segments are gone: every batch byte for byte, minOneMessage, aborted transactions,
 * timestamps, a failing tier.
 */
class RemoteLogReaderTest {

    static final long T0 = 1_700_000_000_000L;
    private static final int MAX_BYTES = 700;
    private static final int LARGE_BATCH = 5;

    @TempDir
    Path dir;

    private KafkaScheduler scheduler;
    private UnifiedLog log;
    private RemoteTierFixture tier;
    private ObservedRemoteStorageManager observed;
    private RemoteLogReader reader;
    private final TopicIdPartition partition = new TopicIdPartition(Uuid.randomUuid(), "orders", 0);
    private byte[] tieredBytes;
    private long largeBatchOffset;
    private long abortedTxnFirstOffset;
    private long abortMarkerOffset;
    private List<RemoteLogSegmentMetadata> copied;

    @BeforeEach
    void tierALog() throws Exception {
        scheduler = new KafkaScheduler(1, "remote-log-reader-test-");
        log = UnifiedLog.create(
                dir.resolve("orders-0"),
                LogConfig.fromProps(Map.of(), Map.of("remote.storage.enable", "true")),
                0,
                0,
                scheduler,
                InstantSource.system(),
                900_000,
                ProducerStateManagerConfig.defaults(),
                600_000,
                true,
                Optional.of(partition.topicId()));
        log.assignEpochStartOffset(0, 0);
        // Segment A: batches 0-3.
        for (int i = 0; i < 4; i++) {
            append(batch(T0 + i * 1000L, "a" + i, "b" + i, "c" + i), 0);
        }
        log.roll();
        // Segment B: batches 4-7, the large batch 5, a new leader epoch from batch 6.
        append(batch(T0 + 4000, "a4"), 0);
        largeBatchOffset = log.logEndOffset();
        String[] large = new String[20];
        for (int i = 0; i < large.length; i++) {
            large[i] = "x".repeat(500) + i;
        }
        append(batch(T0 + LARGE_BATCH * 1000L, large), 0);
        log.assignEpochStartOffset(1, log.logEndOffset());
        append(batch(T0 + 6000, "a6", "b6"), 1);
        append(batch(T0 + 7000, "a7", "b7"), 1);
        log.roll();
        // Segment C: an aborted and a committed transaction, then a plain batch.
        abortedTxnFirstOffset = log.appendAsLeader(
                        RemoteTierFixture.transactional(T0 + 8000, 7, 0, "t1", "t2"),
                        1,
                        AppendOrigin.CLIENT,
                        ProducerAppendInfo.TV_UNKNOWN,
                        log.maybeStartTransactionVerification(7, (short) 0, false))
                .firstOffset();
        abortMarkerOffset = log.appendAsLeader(
                        RemoteTierFixture.marker(T0 + 8000, 7, ControlRecordType.ABORT),
                        1,
                        AppendOrigin.COORDINATOR,
                        (short) 0)
                .firstOffset();
        log.appendAsLeader(
                RemoteTierFixture.transactional(T0 + 9000, 8, 0, "u1"),
                1,
                AppendOrigin.CLIENT,
                ProducerAppendInfo.TV_UNKNOWN,
                log.maybeStartTransactionVerification(8, (short) 0, false));
        log.appendAsLeader(
                RemoteTierFixture.marker(T0 + 9000, 8, ControlRecordType.COMMIT), 1, AppendOrigin.COORDINATOR, (short)
                        0);
        append(batch(T0 + 10_000, "a10"), 1);
        log.roll();
        ByteArrayOutputStream segments = new ByteArrayOutputStream();
        for (LogSegment segment : log.logSegments()) {
            segments.write(Files.readAllBytes(segment.log().file()));
        }
        tieredBytes = segments.toByteArray();
        tier = new RemoteTierFixture(dir.resolve("remote"));
        copied = tier.copyRolledSegments(log, partition);
        RemoteTierFixture.dropLocalSegments(log);
        observed = new ObservedRemoteStorageManager(tier.rsm());
        reader = tier.reader(observed);
    }

    private void append(ByteBuffer batch, int epoch) throws IOException {
        log.appendAsLeader(batch, epoch, AppendOrigin.CLIENT, ProducerAppendInfo.TV_UNKNOWN);
    }

    @AfterEach
    void close() throws Exception {
        tier.close();
        log.close();
        scheduler.shutdown();
    }

    private FetchDataInfo read(long offset, int maxBytes, boolean minOneMessage, FetchIsolation isolation)
            throws Exception {
        return reader.read(new RemoteStorageFetchInfo(partition, offset, maxBytes, minOneMessage, isolation), log);
    }

    @Test
    void theTierHoldsTheLogBelowItsLocalStart() {
        assertEquals(3, copied.size());
        assertEquals(0, log.logStartOffset());
        assertEquals(log.logEndOffset(), log.localLogStartOffset());
        assertEquals(log.localLogStartOffset() - 1, log.highestOffsetInRemoteStorage());
        assertTrue(log.logSegments().getFirst().size() == 0, "no local records left");
    }

    @Test
    void aConsumerReadsEveryTieredBatchInOrderByteForByteThroughBoundedRangedFetches() throws Exception {
        ByteArrayOutputStream read = new ByteArrayOutputStream();
        long offset = 0;
        int reads = 0;
        while (offset < log.localLogStartOffset()) {
            FetchDataInfo data = read(offset, MAX_BYTES, true, FetchIsolation.HIGH_WATERMARK);
            List<LogBatch> batches = batches(data.records());
            assertFalse(batches.isEmpty(), "no progress at offset " + offset);
            read.write(bytes(data.records()));
            offset = batches.getLast().nextOffset();
            reads++;
        }
        assertArrayEquals(tieredBytes, read.toByteArray());
        assertTrue(reads > copied.size(), "the byte limit split the segments into several reads");
        int largeBatchSize = batches(read(largeBatchOffset, MAX_BYTES, true, FetchIsolation.HIGH_WATERMARK)
                        .records())
                .getFirst()
                .sizeInBytes();
        assertFalse(observed.ranges().isEmpty());
        for (ObservedRemoteStorageManager.Range range : observed.ranges()) {
            assertTrue(range.end() >= range.start(), "never an open-ended fetch of the rest of a segment: " + range);
            assertTrue(
                    range.end() - range.start() + 1
                            <= Math.max(MAX_BYTES + log.config().indexIntervalBytes(), largeBatchSize),
                    "a fetch of the byte limit plus the index interval, or of one batch: " + range);
        }
    }

    @Test
    void anOffsetInsideABatchIsReadFromTheStartOfItsBatch() throws Exception {
        List<LogBatch> batches =
                batches(read(4, MAX_BYTES, true, FetchIsolation.HIGH_WATERMARK).records());
        assertEquals(3, batches.getFirst().buffer().getLong(0), "batch 1 holds offsets 3-5");
        assertTrue(batches.stream().mapToInt(LogBatch::sizeInBytes).sum() <= MAX_BYTES);
    }

    @Test
    void aBatchLargerThanTheLimitComesWholeOnlyWithMinOneMessage() throws Exception {
        FetchDataInfo whole = read(largeBatchOffset, MAX_BYTES, true, FetchIsolation.HIGH_WATERMARK);
        List<LogBatch> batches = batches(whole.records());
        assertEquals(1, batches.size(), "only the first batch may exceed the limit");
        assertTrue(batches.getFirst().sizeInBytes() > MAX_BYTES);
        assertEquals(largeBatchOffset, batches.getFirst().buffer().getLong(0));
        batches.getFirst().ensureValid();

        FetchDataInfo none = read(largeBatchOffset, MAX_BYTES, false, FetchIsolation.HIGH_WATERMARK);
        assertEquals(0, none.records().sizeInBytes());
        assertTrue(none.firstEntryIncomplete());
    }

    @Test
    void readCommittedGetsTheAbortedTransactionsFromTheRemoteTransactionIndex() throws Exception {
        FetchDataInfo committed = read(abortedTxnFirstOffset, 1 << 20, true, FetchIsolation.TXN_COMMITTED);
        assertEquals(
                List.of(7L),
                committed.abortedTransactions().orElseThrow().stream()
                        .map(AbortedTxn::producerId)
                        .toList());
        AbortedTxn aborted = committed.abortedTransactions().orElseThrow().getFirst();
        assertEquals(abortedTxnFirstOffset, aborted.firstOffset());
        assertEquals(abortMarkerOffset, aborted.lastOffset());

        FetchDataInfo earlier = read(0, 200, true, FetchIsolation.TXN_COMMITTED);
        assertEquals(List.of(), earlier.abortedTransactions().orElseThrow(), "no abort overlaps segment A's start");
        assertTrue(
                read(abortedTxnFirstOffset, 1 << 20, true, FetchIsolation.HIGH_WATERMARK)
                        .abortedTransactions()
                        .isEmpty(),
                "read_uncommitted carries no aborted transactions");
    }

    @Test
    void anOffsetNoRemoteSegmentHoldsIsOutOfRange() {
        assertThrows(
                OffsetOutOfRangeException.class,
                () -> read(log.localLogStartOffset(), MAX_BYTES, true, FetchIsolation.HIGH_WATERMARK));
    }

    @Test
    void aFailingTierFailsTheRead() {
        observed.fail();
        assertThrows(RemoteStorageException.class, () -> read(0, MAX_BYTES, true, FetchIsolation.HIGH_WATERMARK));
    }

    @Test
    void aTimestampIsFoundInTheRemoteTimeIndexAndBatches() throws Exception {
        TimestampAndOffset found =
                reader.findOffsetByTimestamp(partition, T0 + 5500, 0, log).orElseThrow();
        assertEquals(T0 + 6000, found.timestamp());
        assertEquals(largeBatchOffset + 20, found.offset(), "the first record of batch 6");
        assertEquals(1, found.leaderEpoch().getAsInt());

        TimestampAndOffset first =
                reader.findOffsetByTimestamp(partition, T0 - 1, 0, log).orElseThrow();
        assertEquals(0, first.offset());
        assertEquals(T0, first.timestamp());
        assertTrue(reader.findOffsetByTimestamp(partition, T0 + 60_000, 0, log).isEmpty(), "past the tier");
    }
}
