package io.krabka.kernel.replica;

import static io.krabka.kernel.tiered.RemoteTierFixture.batch;
import static io.krabka.kernel.tiered.RemoteTierFixture.batches;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.errors.KernelErrors;
import io.krabka.kernel.log.AbortedTxn;
import io.krabka.kernel.log.AppendOrigin;
import io.krabka.kernel.log.FetchIsolation;
import io.krabka.kernel.log.LogManager;
import io.krabka.kernel.log.LogManagerConfig;
import io.krabka.kernel.log.LogSegment;
import io.krabka.kernel.log.MetaPropertiesEnsemble;
import io.krabka.kernel.log.OffsetLookup;
import io.krabka.kernel.log.ProducerAppendInfo;
import io.krabka.kernel.log.TimestampAndOffset;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.PartitionRegistration;
import io.krabka.kernel.metadata.TopicImage;
import io.krabka.kernel.metrics.MetricsRegistry;
import io.krabka.kernel.record.ControlRecordType;
import io.krabka.kernel.record.LogBatch;
import io.krabka.kernel.scheduler.KafkaScheduler;
import io.krabka.kernel.tiered.AsyncRemoteLogReader;
import io.krabka.kernel.tiered.ObservedRemoteStorageManager;
import io.krabka.kernel.tiered.RemoteFetchMetrics;
import io.krabka.kernel.tiered.RemoteReadConfig;
import io.krabka.kernel.tiered.RemoteTierFixture;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.TopicPartition;
import io.krabka.spi.common.Uuid;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.InstantSource;
import java.time.ZoneOffset;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Fetches and ListOffsets of a tiered partition whose first segments are only in a remote tier of the real
 * {@code local} and {@code inmemory} plugins, next to a plain partition: Kafka's DelayedRemoteFetch.
 */
class RemoteFetchTest {

    private static final int NODE = 1;
    private static final long T0 = 1_700_000_000_000L;
    private static final TopicPartition TIERED = new TopicPartition("orders", 0);
    private static final TopicPartition PLAIN = new TopicPartition("plain", 0);
    /** A second tiered partition, as the first. */
    private static final TopicPartition INVOICES = new TopicPartition("invoices", 0);

    private static final int PARTITION_MAX_BYTES = 150;
    private static final RemoteReadConfig NO_LIMITS =
            new RemoteReadConfig(2, 10, 60_000, Long.MAX_VALUE, 11, 1, 60_000);

    @TempDir
    Path dir;

    private final Uuid tieredId = Uuid.randomUuid();
    private final Uuid plainId = Uuid.randomUuid();
    private final Uuid invoicesId = Uuid.randomUuid();
    private KafkaScheduler scheduler;
    private LogManager logManager;
    private RemoteTierFixture tier;
    private ObservedRemoteStorageManager observed;
    private RemoteFetchMetrics metrics;
    private AsyncRemoteLogReader remoteReader;
    private ReplicaManager replicaManager;
    private byte[] tieredBytes;
    private long localLogStartOffset;

    /** Starts the broker's data path with two tiered partitions, each with 9 batches in the remote tier and 3 local. */
    private void start(RemoteReadConfig config, InstantSource clock) throws Exception {
        Path logDir = dir.resolve("data");
        MetaPropertiesEnsemble.format(List.of(logDir), "remoteFetchTestAAAAAAA", NODE);
        scheduler = new KafkaScheduler(1, "remote-fetch-test-");
        logManager = new LogManager(
                LogManagerConfig.fromProps(Map.of(
                        "log.dirs", logDir.toString(), "node.id", "1", "remote.log.storage.system.enable", "true")),
                topic -> LogConfig.defaults(),
                scheduler,
                InstantSource.system());
        logManager.startup();
        tier = new RemoteTierFixture(dir.resolve("remote"));
        observed = new ObservedRemoteStorageManager(tier.rsm());
        metrics = new RemoteFetchMetrics(MetricsRegistry.unpublished());
        remoteReader = new AsyncRemoteLogReader(tier.reader(observed), config, metrics, clock);
        replicaManager = new ReplicaManager(
                new ReplicaManagerConfig(NODE, Map.of()), logManager, scheduler, Optional.of(remoteReader));
        Map<String, TopicImage> topics = new HashMap<>();
        topics.put("orders", topic("orders", tieredId));
        topics.put("plain", topic("plain", plainId));
        topics.put("invoices", topic("invoices", invoicesId));
        Map<String, String> tiered = Map.of("remote.storage.enable", "true");
        replicaManager.onMetadataUpdate(
                MetadataImage.EMPTY,
                new MetadataImage(
                        1,
                        Map.of(),
                        topics,
                        Map.of("orders", tiered, "invoices", tiered),
                        Map.of(),
                        Map.of(),
                        Map.of(),
                        0));
        tieredBytes = fillTiered(TIERED, tieredId);
        fillTiered(INVOICES, invoicesId);
        localLogStartOffset = log(TIERED).localLogStartOffset();
        append(PLAIN, batch(T0, "p0", "p1"));
        append(PLAIN, batch(T0, "p2"));
    }

    /** 9 batches of 3 records copied to the remote tier and dropped locally, then 3 local; the tiered bytes. */
    private byte[] fillTiered(TopicPartition partition, Uuid topicId) throws Exception {
        UnifiedLog log = log(partition);
        for (int i = 0; i < 9; i++) {
            append(partition, batch(T0 + i * 1000L, "a" + i, "b" + i, "c" + i));
            if (i % 3 == 2) {
                log.roll();
            }
        }
        byte[] tiered = segmentBytes(log);
        tier.copyRolledSegments(log, new TopicIdPartition(topicId, partition));
        RemoteTierFixture.dropLocalSegments(log);
        for (int i = 9; i < 12; i++) {
            append(partition, batch(T0 + i * 1000L, "a" + i, "b" + i, "c" + i));
        }
        return tiered;
    }

    private static TopicImage topic(String name, Uuid id) {
        return TopicImage.of(name, id, Map.of(0, new PartitionRegistration(List.of(NODE), List.of(NODE), NODE, 0, 0)));
    }

    private void append(TopicPartition partition, ByteBuffer batch) {
        assertEquals(
                Errors.NONE,
                replicaManager
                        .appendRecords((short) -1, false, AppendOrigin.CLIENT, Map.of(partition, batch))
                        .get(partition)
                        .error());
    }

    private UnifiedLog log(TopicPartition partition) {
        return replicaManager.partition(partition).orElseThrow().log();
    }

    private static byte[] segmentBytes(UnifiedLog log) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        for (LogSegment segment : log.logSegments()) {
            bytes.write(Files.readAllBytes(segment.log().file()));
        }
        return bytes.toByteArray();
    }

    @AfterEach
    void stop() throws Exception {
        if (replicaManager != null) {
            observed.release();
            replicaManager.close();
            remoteReader.close();
            tier.close();
            logManager.close();
            scheduler.shutdown();
        }
    }

    private List<LogReadResult> fetch(long maxWaitMs, FetchPartition... partitions) throws Exception {
        return fetchAsync(maxWaitMs, partitions).get(60, TimeUnit.SECONDS);
    }

    private CompletableFuture<List<LogReadResult>> fetchAsync(long maxWaitMs, FetchPartition... partitions) {
        return fetchAsync(FetchIsolation.HIGH_WATERMARK, maxWaitMs, partitions);
    }

    private CompletableFuture<List<LogReadResult>> fetchAsync(
            FetchIsolation isolation, long maxWaitMs, FetchPartition... partitions) {
        return replicaManager.fetchMessages(new FetchParams(-1, maxWaitMs, 1, 1 << 20, isolation), List.of(partitions));
    }

    /** A fetch whose response may hold at most {@code maxBytes}. */
    private List<LogReadResult> fetchWithin(int maxBytes, FetchPartition... partitions) throws Exception {
        return replicaManager
                .fetchMessages(new FetchParams(-1, 0, 1, maxBytes, FetchIsolation.HIGH_WATERMARK), List.of(partitions))
                .get(60, TimeUnit.SECONDS);
    }

    private FetchPartition at(TopicPartition partition, long offset) {
        Uuid id = partition == TIERED ? tieredId : partition == INVOICES ? invoicesId : plainId;
        return new FetchPartition(new TopicIdPartition(id, partition), offset, PARTITION_MAX_BYTES, Optional.empty());
    }

    @Test
    void aConsumerFromTheEarliestOffsetReadsAcrossTheBoundaryByteForByte() throws Exception {
        start(NO_LIMITS, InstantSource.system());
        ByteArrayOutputStream read = new ByteArrayOutputStream();
        long offset = 0;
        long highWatermark = log(TIERED).highWatermark();
        while (offset < highWatermark) {
            LogReadResult result = fetch(0, at(TIERED, offset)).getFirst();
            assertEquals(Errors.NONE, result.error());
            assertEquals(0, result.logStartOffset(), "the log start offset counts the remote tier");
            assertEquals(highWatermark, result.highWatermark());
            List<LogBatch> batches = batches(result.records());
            assertFalse(batches.isEmpty(), "no progress at offset " + offset);
            // A local read may end in part of a batch, as Kafka's does: the client drops it.
            for (LogBatch batch : batches) {
                ByteBuffer buffer = batch.buffer();
                byte[] whole = new byte[buffer.remaining()];
                buffer.get(whole);
                read.write(whole);
            }
            offset = batches.getLast().nextOffset();
        }
        ByteArrayOutputStream expected = new ByteArrayOutputStream();
        expected.write(tieredBytes);
        expected.write(segmentBytes(log(TIERED)));
        assertArrayEquals(expected.toByteArray(), read.toByteArray(), "every batch once, in order");
        RemoteFetchMetrics.Counts total = metrics.total();
        assertEquals(tieredBytes.length, total.bytes(), "the remote reads returned exactly the tiered bytes");
        assertEquals(total, metrics.topic("orders"));
        assertEquals(0, total.errors());
        assertEquals(total.requests(), total.latencyCount());
        assertTrue(tier.indexCache().stats().hitCount() > 0, "later reads of a segment find its indexes cached");
        assertEquals(0, replicaManager.waitingFetches());
    }

    @Test
    void oneFetchReadsEveryPartitionWhoseOffsetIsInTheRemoteTier() throws Exception {
        start(NO_LIMITS, InstantSource.system());
        List<LogReadResult> results = fetch(0, at(TIERED, 0), at(INVOICES, 3), at(PLAIN, 0));
        assertEquals(0, batches(results.get(0).records()).getFirst().buffer().getLong(0));
        assertEquals(3, batches(results.get(1).records()).getFirst().buffer().getLong(0));
        assertEquals(2, batches(results.get(2).records()).size());
        assertEquals(2, metrics.total().requests(), "one remote read per tiered partition, in one fetch");
        assertEquals(1, metrics.topic("invoices").requests());
        assertEquals(0, replicaManager.waitingFetches());
    }

    @Test
    void aRemoteReadCountsAgainstTheResponseWithTheMostItMayReturn() throws Exception {
        start(NO_LIMITS, InstantSource.system());
        List<LogReadResult> results = fetchWithin(PARTITION_MAX_BYTES, at(TIERED, 0), at(INVOICES, 0), at(PLAIN, 0));
        assertFalse(batches(results.get(0).records()).isEmpty());
        assertEquals(0, results.get(1).records().sizeInBytes(), "no room left: not read, remotely or at all");
        assertEquals(Errors.NONE, results.get(1).error());
        assertEquals(0, results.get(2).records().sizeInBytes());
        assertEquals(1, metrics.total().requests());
    }

    @Test
    void aReadCommittedFetchGetsTheAbortedTransactionsOfTheRemoteTier() throws Exception {
        start(NO_LIMITS, InstantSource.system());
        UnifiedLog log = log(TIERED);
        // The transaction's first batch carries the verification the coordinator would have confirmed.
        long transactionStart = log.appendAsLeader(
                        RemoteTierFixture.transactional(T0 + 20_000, 7, 0, "t1", "t2"),
                        0,
                        AppendOrigin.CLIENT,
                        ProducerAppendInfo.TV_UNKNOWN,
                        log.maybeStartTransactionVerification(7, (short) 0, false))
                .firstOffset();
        long abortOffset = log.appendAsLeader(
                        RemoteTierFixture.marker(T0 + 20_000, 7, ControlRecordType.ABORT),
                        0,
                        AppendOrigin.COORDINATOR,
                        (short) 0)
                .firstOffset();
        log.maybeIncrementHighWatermark(log.logEndOffsetMetadata());
        log.roll();
        tier.copyRolledSegments(log, new TopicIdPartition(tieredId, TIERED));
        RemoteTierFixture.dropLocalSegments(log);
        assertEquals(abortOffset + 1, log.localLogStartOffset(), "the transaction is in the remote tier only");

        LogReadResult committed = fetchAsync(FetchIsolation.TXN_COMMITTED, 0, at(TIERED, transactionStart))
                .get(60, TimeUnit.SECONDS)
                .getFirst();
        assertEquals(Errors.NONE, committed.error());
        List<AbortedTxn> aborted = committed.abortedTransactions().orElseThrow();
        assertEquals(1, aborted.size());
        assertEquals(7, aborted.getFirst().producerId());
        assertEquals(transactionStart, aborted.getFirst().firstOffset());
        assertEquals(abortOffset, aborted.getFirst().lastOffset());
        assertEquals(
                transactionStart,
                batches(committed.records()).getFirst().buffer().getLong(0));
        LogReadResult uncommitted = fetch(0, at(TIERED, transactionStart)).getFirst();
        assertTrue(uncommitted.abortedTransactions().isEmpty());
    }

    @Test
    void aFailingTierFailsItsPartitionAndTheLocalPartitionsAreStillAnswered() throws Exception {
        start(NO_LIMITS, InstantSource.system());
        observed.fail();
        List<LogReadResult> results = fetch(0, at(TIERED, 0), at(PLAIN, 0));
        assertEquals(Errors.UNKNOWN_SERVER_ERROR, results.get(0).error());
        assertEquals(Errors.NONE, results.get(1).error());
        assertEquals(2, batches(results.get(1).records()).size());
        assertEquals(1, metrics.total().errors());
        assertEquals(Errors.UNKNOWN_SERVER_ERROR, lookupError(T0 + 4500), "a ListOffsets search fails too");
    }

    @Test
    void aRemoteReadPastRemoteFetchMaxWaitIsAnsweredWithoutItsRecords() throws Exception {
        start(new RemoteReadConfig(2, 10, 1, Long.MAX_VALUE, 11, 1, 60_000), InstantSource.system());
        observed.hold();
        List<LogReadResult> results = fetch(0, at(TIERED, 0), at(PLAIN, 0));
        assertEquals(Errors.NONE, results.get(0).error());
        assertEquals(0, results.get(0).records().sizeInBytes());
        assertEquals(0, results.get(0).logStartOffset());
        assertEquals(2, batches(results.get(1).records()).size(), "the local partition is answered as read");
        observed.release();
        assertEquals(0, replicaManager.waitingFetches());
    }

    @Test
    void readsBeyondThePendingBoundAreRefusedAndTheWaitingOnesStillAnswer() throws Exception {
        start(new RemoteReadConfig(1, 1, 60_000, Long.MAX_VALUE, 11, 1, 60_000), InstantSource.system());
        observed.hold();
        CompletableFuture<List<LogReadResult>> running = fetchAsync(0, at(TIERED, 0));
        CompletableFuture<List<LogReadResult>> pending = fetchAsync(0, at(TIERED, 3));
        List<LogReadResult> refused = fetch(0, at(TIERED, 6), at(PLAIN, 0));
        assertEquals(Errors.UNKNOWN_SERVER_ERROR, refused.get(0).error());
        assertEquals(Errors.NONE, refused.get(1).error());
        assertFalse(running.isDone());
        assertEquals(2, replicaManager.waitingFetches());
        observed.release();
        assertEquals(
                0,
                batches(running.get(60, TimeUnit.SECONDS).getFirst().records())
                        .getFirst()
                        .buffer()
                        .getLong(0));
        assertEquals(
                3,
                batches(pending.get(60, TimeUnit.SECONDS).getFirst().records())
                        .getFirst()
                        .buffer()
                        .getLong(0));
    }

    @Test
    void overTheFetchQuotaRemoteReadsAreSkipped() throws Exception {
        InstantSource frozen = Clock.fixed(Instant.ofEpochMilli(T0), ZoneOffset.UTC);
        start(new RemoteReadConfig(2, 10, 60_000, 1, 11, 1, 60_000), frozen);
        assertFalse(batches(fetch(0, at(TIERED, 0)).getFirst().records()).isEmpty(), "the quota is not used yet");
        LogReadResult throttled = fetch(0, at(TIERED, 0)).getFirst();
        assertEquals(Errors.NONE, throttled.error());
        assertEquals(0, throttled.records().sizeInBytes());
        assertEquals(1, metrics.total().requests(), "the second fetch did not read the remote tier");
        assertFalse(
                batches(fetch(0, at(TIERED, localLogStartOffset)).getFirst().records())
                        .isEmpty(),
                "local reads are not throttled");
    }

    @Test
    void listOffsetsAnswersFromTheRemoteTierAndTheLocalLog() throws Exception {
        start(NO_LIMITS, InstantSource.system());
        assertEquals(0, lookup(TIERED, OffsetLookup.EARLIEST_TIMESTAMP).offset());
        assertEquals(
                localLogStartOffset,
                lookup(TIERED, OffsetLookup.EARLIEST_LOCAL_TIMESTAMP).offset());
        TimestampAndOffset tiered = lookup(TIERED, OffsetLookup.LATEST_TIERED_TIMESTAMP);
        assertEquals(localLogStartOffset - 1, tiered.offset());
        assertEquals(0, tiered.leaderEpoch().getAsInt());
        TimestampAndOffset remote = lookup(TIERED, T0 + 4500);
        assertEquals(15, remote.offset(), "the first record of batch 5, in the remote tier");
        assertEquals(T0 + 5000, remote.timestamp());
        TimestampAndOffset local = lookup(TIERED, T0 + 9500);
        assertEquals(30, local.offset(), "the first record of batch 10, in the local log");
        assertEquals(
                localLogStartOffset,
                lookup(TIERED, OffsetLookup.EARLIEST_PENDING_UPLOAD_TIMESTAMP).offset(),
                "the offset after the highest tiered one");
        assertEquals(
                -1,
                lookup(PLAIN, OffsetLookup.EARLIEST_PENDING_UPLOAD_TIMESTAMP).offset());
        assertEquals(-1, lookup(PLAIN, OffsetLookup.LATEST_TIERED_TIMESTAMP).offset());
        assertEquals(
                -1,
                lookup(PLAIN, OffsetLookup.LATEST_TIERED_TIMESTAMP)
                        .leaderEpoch()
                        .getAsInt());
    }

    @Test
    void aTimestampLookupInASlowTierTimesOut() throws Exception {
        start(new RemoteReadConfig(2, 10, 60_000, Long.MAX_VALUE, 11, 1, 1), InstantSource.system());
        observed.hold();
        assertEquals(Errors.REQUEST_TIMED_OUT, lookupError(T0 + 4500));
        assertEquals(
                localLogStartOffset,
                lookup(TIERED, OffsetLookup.EARLIEST_LOCAL_TIMESTAMP).offset(),
                "the special timestamps need no remote read");
    }

    private Errors lookupError(long timestamp) {
        try {
            replicaManager.fetchOffsetForTimestamp(TIERED, timestamp, false, Optional.empty());
            throw new AssertionError("the lookup of " + timestamp + " did not fail");
        } catch (IOException | RuntimeException e) {
            return KernelErrors.forException(e);
        }
    }

    private TimestampAndOffset lookup(TopicPartition partition, long timestamp) throws IOException {
        return replicaManager
                .fetchOffsetForTimestamp(partition, timestamp, false, Optional.empty())
                .orElseThrow();
    }
}
