package io.krabka.kernel.controller;

import io.krabka.kernel.log.AppendOrigin;
import io.krabka.kernel.log.FetchDataInfo;
import io.krabka.kernel.log.FetchIsolation;
import io.krabka.kernel.log.LogDirFailureChannel;
import io.krabka.kernel.log.LogManager;
import io.krabka.kernel.log.ProducerAppendInfo;
import io.krabka.kernel.log.ProducerStateManagerConfig;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.metadata.MetadataBatch;
import io.krabka.kernel.metadata.MetadataRecordAndVersion;
import io.krabka.kernel.metadata.MetadataRecordSerde;
import io.krabka.kernel.record.Compression;
import io.krabka.kernel.record.LogBatch;
import io.krabka.kernel.record.MemoryRecords;
import io.krabka.kernel.record.RecordBatchBuilder;
import io.krabka.kernel.record.TimestampType;
import io.krabka.kernel.scheduler.Scheduler;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The metadata log, {@code __cluster_metadata-0}, as a {@link UnifiedLog}: batches framed as Kafka's KRaft leader
 * writes them (magic 2, uncompressed, CreateTime, no producer, the leader epoch as partition leader epoch; each
 * record without key or headers, its value a framed metadata record). Every append is flushed before it returns.
 * One leader epoch per start, one more than the log's last. Not thread-safe: the controller's thread uses it.
 */
final class MetadataLog implements Closeable {

    /** The partition directory, as Kafka names it. */
    static final String DIRECTORY = LogManager.CLUSTER_METADATA_TOPIC + "-0";
    /** Kafka's KRaft bound on a batch ({@code KafkaRaftClient.MAX_BATCH_SIZE_BYTES}). */
    static final int MAX_BATCH_SIZE_BYTES = 8 * 1024 * 1024;
    // Kafka's defaults for the settings the producer state of a log needs; no producer writes here.
    private static final int MAX_TRANSACTION_TIMEOUT_MS = 900_000;
    private static final int PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS = 600_000;

    private final UnifiedLog log;
    private final InstantSource time;
    private final int epoch;

    private MetadataLog(UnifiedLog log, InstantSource time) {
        this.log = log;
        this.time = time;
        this.epoch = log.latestEpoch().orElse(0) + 1;
    }

    /** Opens (creating if needed) the metadata log in {@code metadataLogDir}, recovering it from its start. */
    static MetadataLog open(
            Path metadataLogDir, Scheduler scheduler, InstantSource time, LogDirFailureChannel logDirFailureChannel)
            throws IOException {
        // Kept whole: Krabka takes no snapshots yet, and reads Kafka's (MetadataSnapshot) but deletes none of them.
        LogConfig config = LogConfig.fromProps(
                Map.of(),
                Map.of("max.message.bytes", MAX_BATCH_SIZE_BYTES, "retention.ms", -1L, "retention.bytes", -1L));
        UnifiedLog log = UnifiedLog.create(
                metadataLogDir.resolve(DIRECTORY),
                config,
                0,
                0,
                scheduler,
                time,
                MAX_TRANSACTION_TIMEOUT_MS,
                ProducerStateManagerConfig.defaults(),
                PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS,
                false,
                Optional.empty(),
                false,
                logDirFailureChannel);
        return new MetadataLog(log, time);
    }

    /** The offset after the last record. */
    long endOffset() {
        return log.logEndOffset();
    }

    /**
     * The metadata to replay, in order: the latest snapshot's records (as one batch), if there is a snapshot, then
     * every batch of the log after it; without one, every batch of the log, which must then start at 0.
     *
     * @throws IOException if the log starts after its latest snapshot's end, so that records are missing
     */
    List<MetadataBatch> readAll() throws IOException {
        List<MetadataBatch> batches = new ArrayList<>();
        Optional<MetadataSnapshot> snapshot = MetadataSnapshot.latest(log.dir());
        long from = snapshot.map(MetadataSnapshot::endOffset).orElse(0L);
        if (log.logStartOffset() > from) {
            throw new IOException(log.dir() + " starts at offset " + log.logStartOffset()
                    + snapshot.map(s -> ", after " + "its latest snapshot "
                                    + s.file().getFileName() + " ends")
                            .orElse(" without a snapshot before it")
                    + ": metadata records are missing");
        }
        if (from > log.logEndOffset()) {
            throw new IOException(log.dir() + " ends at offset " + log.logEndOffset() + ", before its latest snapshot "
                    + snapshot.orElseThrow().file().getFileName() + " ends");
        }
        if (snapshot.isPresent()) {
            batches.add(snapshot.get().read());
        }
        long offset = from;
        while (offset < log.logEndOffset()) {
            FetchDataInfo read = log.read(offset, MAX_BATCH_SIZE_BYTES, FetchIsolation.LOG_END, true);
            ByteBuffer bytes = ByteBuffer.allocate(read.records().sizeInBytes());
            read.records().readInto(bytes, 0);
            bytes.flip();
            long next = offset;
            for (LogBatch batch : MemoryRecords.readableRecords(bytes, log.dir().toString(), 0)) {
                next = batch.nextOffset();
            }
            if (next == offset) {
                throw new IOException("no whole batch at offset " + offset + " of " + log.dir());
            }
            for (MetadataBatch batch : MetadataBatch.readAll(bytes, log.dir().toString())) {
                if (batch.baseOffset() < from && batch.lastOffset() >= from) {
                    throw new IOException("the batch at offset " + batch.baseOffset() + " of " + log.dir()
                            + " straddles the end of its snapshot, " + from);
                }
                if (batch.baseOffset() >= from) {
                    batches.add(batch);
                }
            }
            offset = next;
        }
        return batches;
    }

    /**
     * Appends {@code records} as one batch, not yet flushed; a failed append leaves the log as it was.
     *
     * @return the offset of the last record
     */
    long append(List<MetadataRecordAndVersion> records) throws IOException {
        long now = time.millis();
        RecordBatchBuilder batch =
                new RecordBatchBuilder(Compression.NONE, TimestampType.CREATE_TIME, 0).partitionLeaderEpoch(epoch);
        for (MetadataRecordAndVersion record : records) {
            batch.append(now, (ByteBuffer) null, MetadataRecordSerde.serialize(record), List.of());
        }
        return log.appendAsLeader(batch.build(), epoch, AppendOrigin.COORDINATOR, ProducerAppendInfo.TV_UNKNOWN)
                .lastOffset();
    }

    /** Flushes what was appended to disk and commits it: the high watermark moves to the log end. */
    void flush() throws IOException {
        log.flush(false);
        log.updateHighWatermark(log.logEndOffset());
    }

    @Override
    public void close() throws IOException {
        log.close();
    }
}
