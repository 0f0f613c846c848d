package io.krabka.kernel.tiered;

import io.krabka.kernel.log.FetchRecords;
import io.krabka.kernel.log.LogSegment;
import io.krabka.kernel.log.ProducerStateManager;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.log.checkpoint.EpochEntry;
import io.krabka.kernel.log.checkpoint.LeaderEpochCheckpointFile;
import io.krabka.kernel.record.Compression;
import io.krabka.kernel.record.ControlRecordType;
import io.krabka.kernel.record.EndTransactionMarker;
import io.krabka.kernel.record.LogBatch;
import io.krabka.kernel.record.MemoryRecords;
import io.krabka.kernel.record.RecordBatchBuilder;
import io.krabka.kernel.record.TimestampType;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.storage.LogSegmentData;
import io.krabka.spi.storage.RemoteLogMetadataManager;
import io.krabka.spi.storage.RemoteLogSegmentId;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentMetadataUpdate;
import io.krabka.spi.storage.RemoteLogSegmentState;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.spi.storage.RemoteStorageManager;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;

/**
 * A remote tier of the real plugins, {@code local} (a directory laid out as Kafka's LocalTieredStorage) and
 * {@code inmemory}, unpacked from their bundles into {@code target/test-plugins} and loaded by the kernel's plugin
 * discovery, each in its own layer as in the distribution; with Kafka's copy of a log's
 * rolled segments (metadata COPY_SEGMENT_STARTED, the RSM copy, then COPY_SEGMENT_FINISHED) and the move of a
 * log's local start above its tiered offsets.
 */
public final class RemoteTierFixture implements AutoCloseable {

    /** The broker id the copies carry. */
    public static final int BROKER_ID = 0;

    private final Path dir;
    private final RemoteStorageManager rsm;
    private final RemoteLogMetadataManager rlmm;
    private final RemoteIndexCache indexCache;

    /** A tier under {@code dir}: the segments in {@code dir/tier}, the index cache in {@code dir/cache}. */
    public RemoteTierFixture(Path dir) throws IOException {
        this.dir = dir;
        Path tier = Files.createDirectories(dir.resolve("tier"));
        this.rsm = TieredPlugins.REGISTRY.createRemoteStorageManager("local", Map.of("dir", tier.toString()));
        this.rlmm = TieredPlugins.REGISTRY.createRemoteLogMetadataManager("inmemory", Map.of());
        this.indexCache = new RemoteIndexCache(1 << 20, rsm, Files.createDirectories(dir.resolve("cache")));
    }

    public RemoteStorageManager rsm() {
        return rsm;
    }

    public RemoteLogMetadataManager rlmm() {
        return rlmm;
    }

    public RemoteIndexCache indexCache() {
        return indexCache;
    }

    /** A reader of this tier. */
    public RemoteLogReader reader() {
        return new RemoteLogReader(rsm, rlmm, indexCache);
    }

    /** A reader of this tier's metadata and indexes whose segment bytes come from {@code segments}. */
    public RemoteLogReader reader(RemoteStorageManager segments) {
        return new RemoteLogReader(segments, rlmm, indexCache);
    }

    /**
     * Copies every rolled segment of {@code log} as Kafka's copy task does, and records the highest copied offset
     * in the log.
     *
     * @return the copied segments' metadata, in offset order
     */
    public List<RemoteLogSegmentMetadata> copyRolledSegments(UnifiedLog log, TopicIdPartition partition)
            throws IOException, RemoteStorageException, ExecutionException, InterruptedException {
        rlmm.onPartitionLeadershipChanges(Set.of(partition), Set.of());
        List<LogSegment> segments = log.logSegments();
        List<RemoteLogSegmentMetadata> copied = new ArrayList<>();
        for (int i = 0; i + 1 < segments.size(); i++) {
            LogSegment segment = segments.get(i);
            long nextBase = segments.get(i + 1).baseOffset();
            NavigableMap<Integer, Long> epochs = new TreeMap<>();
            List<EpochEntry> entries = log.leaderEpochCache().epochEntriesInRange(segment.baseOffset(), nextBase);
            entries.forEach(entry -> epochs.put(entry.epoch(), entry.startOffset()));
            Path txnIndex = segment.txnIndex().file();
            boolean txnIndexEmpty = !Files.exists(txnIndex) || Files.size(txnIndex) == 0;
            RemoteLogSegmentMetadata started = new RemoteLogSegmentMetadata(
                    RemoteLogSegmentId.generateNew(partition),
                    segment.baseOffset(),
                    nextBase - 1,
                    segment.largestTimestamp(),
                    BROKER_ID,
                    System.currentTimeMillis(),
                    segment.size(),
                    epochs,
                    txnIndexEmpty);
            rlmm.addRemoteLogSegmentMetadata(started).get();
            rsm.copyLogSegmentData(
                    started,
                    new LogSegmentData(
                            segment.log().file(),
                            segment.offsetIndex().file(),
                            segment.timeIndex().file(),
                            txnIndexEmpty ? Optional.empty() : Optional.of(txnIndex),
                            producerSnapshot(log, nextBase),
                            LeaderEpochCheckpointFile.toByteBuffer(
                                    log.leaderEpochCache().epochEntriesInRange(-1, nextBase))));
            RemoteLogSegmentMetadataUpdate finished = new RemoteLogSegmentMetadataUpdate(
                    started.remoteLogSegmentId(),
                    System.currentTimeMillis(),
                    Optional.empty(),
                    RemoteLogSegmentState.COPY_SEGMENT_FINISHED,
                    BROKER_ID);
            rlmm.updateRemoteLogSegmentMetadata(finished).get();
            log.updateHighestOffsetInRemoteStorage(nextBase - 1);
            copied.add(started.createWithUpdates(finished));
        }
        return copied;
    }

    private Path producerSnapshot(UnifiedLog log, long offset) throws IOException {
        Optional<Path> snapshot = log.producerStateManager().fetchSnapshot(offset);
        if (snapshot.isPresent()) {
            return snapshot.get();
        }
        Path empty = dir.resolve("empty-" + offset + ".snapshot");
        ProducerStateManager.writeSnapshot(empty, List.of());
        return empty;
    }

    /**
     * Drops every local segment of {@code log}, whose offsets are all tiered, and starts its local log at its end,
     * keeping the log start offset and the leader epochs: the state a tiered log is in once local retention removed
     * what was copied (Kafka's follower reaches it by {@code truncateFullyAndStartAt} with the remote log start).
     */
    public static void dropLocalSegments(UnifiedLog log) throws IOException {
        List<EpochEntry> epochs = log.leaderEpochCache().epochEntries();
        log.truncateFullyAndStartAt(log.logEndOffset(), OptionalLong.of(log.logStartOffset()));
        for (EpochEntry epoch : epochs) {
            log.leaderEpochCache().assign(epoch.epoch(), epoch.startOffset());
        }
    }

    /** A plain batch of one record per value, stamped {@code timestamp}. */
    public static ByteBuffer batch(long timestamp, String... values) {
        RecordBatchBuilder builder = new RecordBatchBuilder(Compression.NONE, TimestampType.CREATE_TIME, 0);
        for (String value : values) {
            builder.append(timestamp, null, value.getBytes(StandardCharsets.UTF_8));
        }
        return builder.build();
    }

    /** A transactional batch of a producer. */
    public static ByteBuffer transactional(long timestamp, long producerId, int sequence, String... values) {
        RecordBatchBuilder builder = new RecordBatchBuilder(Compression.NONE, TimestampType.CREATE_TIME, 0)
                .producer(producerId, (short) 0, sequence)
                .transactional(true);
        for (String value : values) {
            builder.append(timestamp, null, value.getBytes(StandardCharsets.UTF_8));
        }
        return builder.build();
    }

    /** A transaction marker as the coordinator writes it. */
    public static ByteBuffer marker(long timestamp, long producerId, ControlRecordType type) {
        return new RecordBatchBuilder(Compression.NONE, TimestampType.CREATE_TIME, 0)
                .producer(producerId, (short) 0, -1)
                .appendEndTxnMarker(timestamp, new EndTransactionMarker(type, 0))
                .build();
    }

    /** The bytes of records read. */
    public static byte[] bytes(FetchRecords records) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(records.sizeInBytes());
        records.readInto(buffer, 0);
        return buffer.array();
    }

    /** The batches of records read, copied out. */
    public static List<LogBatch> batches(FetchRecords records) throws IOException {
        List<LogBatch> batches = new ArrayList<>();
        MemoryRecords.readableRecords(ByteBuffer.wrap(bytes(records)), "read", 0)
                .forEach(batches::add);
        return batches;
    }

    @Override
    public void close() throws IOException {
        indexCache.close();
        rlmm.close();
        rsm.close();
    }
}
