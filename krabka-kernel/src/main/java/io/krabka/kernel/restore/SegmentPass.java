package io.krabka.kernel.restore;

import io.krabka.kernel.record.Record;
import io.krabka.kernel.record.RecordBatch;
import io.krabka.kernel.restore.bound.BatchHeader;
import io.krabka.kernel.restore.bound.RecordDecision;
import io.krabka.kernel.restore.bound.RestoreBounds;
import io.krabka.kernel.restore.materialize.BatchRewriter;
import io.krabka.kernel.restore.materialize.PartitionWriter;
import io.krabka.spi.common.TopicPartition;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The bound and materialize stages for the batches of one segment as the verify stage hands them over: each batch
 * is kept byte for byte, re-encoded without its excluded records, written as a bare header, or — past the cut —
 * left out with everything after it. Counts what it did for the report.
 */
final class SegmentPass implements BatchVisitor {
    // Decompressed records of one batch are held at once; far above any batch Kafka accepts by default.
    private static final long MAX_DECOMPRESSED_BYTES = 1L << 30;

    private final TopicPartition partition;
    private final String key;
    private final RestoreBounds bounds;
    private final PartitionWriter writer;
    private final long segmentBase;
    private final long segmentSize;
    private final RestoreProgress progress;
    private long lastWritten;
    private boolean cut;
    private long firstOffset = -1;
    long batchesKept;
    long batchesRewritten;
    long batchesEmptied;
    long recordsKept;
    long recordsDropped;
    long bytesWritten;

    /**
     * @param writer      where batches go, or null for a dry run
     * @param segmentBase the segment's start offset, or -1 when its keys carry none (the first batch's then)
     * @param segmentSize the archived segment's size, which the restored one does not exceed
     * @param lastWritten the last offset the partition holds already, -1 for none: an earlier copy's batches are
     *                    not written twice
     */
    SegmentPass(
            TopicPartition partition,
            String key,
            RestoreBounds bounds,
            PartitionWriter writer,
            long segmentBase,
            long segmentSize,
            long lastWritten,
            RestoreProgress progress) {
        this.partition = partition;
        this.key = key;
        this.bounds = bounds;
        this.writer = writer;
        this.segmentBase = segmentBase;
        this.segmentSize = segmentSize;
        this.lastWritten = lastWritten;
        this.progress = progress;
    }

    @Override
    public void visit(VerifiedBatch batch, ByteBuffer bytes) throws IOException {
        progress.read(batch.sizeInBytes());
        if (cut || batch.lastOffset() <= lastWritten) {
            recordsDropped += batch.recordCount();
            return;
        }
        RecordBatch view = RecordBatch.at(bytes, 0, key, batch.position());
        BatchHeader header = BatchHeader.of(partition, view);
        switch (bounds.decide(header)) {
            case KEEP -> keep(batch, bytes);
            case DROP -> {
                cut = true;
                recordsDropped += batch.recordCount();
            }
            case EMPTY -> {
                write(
                        batch.baseOffset(),
                        BatchRewriter.rewrite(view, List.of(), batch.lastOffset()),
                        batch.lastOffset());
                batchesEmptied++;
                recordsDropped += batch.recordCount();
            }
            case FILTER -> filter(batch, bytes, view, header);
        }
        if (!cut && bounds.isComplete(partition, lastWritten + 1)) {
            cut = true;
        }
    }

    private void filter(VerifiedBatch batch, ByteBuffer bytes, RecordBatch view, BatchHeader header)
            throws IOException {
        List<Record> records = view.records(MAX_DECOMPRESSED_BYTES);
        List<Record> kept = new ArrayList<>(records.size());
        long claimed = batch.lastOffset();
        for (Record record : records) {
            RecordDecision decision = bounds.decide(header, record);
            if (decision == RecordDecision.BEYOND_CUT) {
                cut = true;
                claimed = record.offset() - 1;
                break;
            }
            if (decision == RecordDecision.KEEP) {
                kept.add(record);
            }
        }
        recordsDropped += records.size() - kept.size();
        if (claimed < batch.baseOffset()) {
            return;
        }
        if (kept.size() == records.size() && claimed == batch.lastOffset()) {
            keep(batch, bytes);
            return;
        }
        write(batch.baseOffset(), BatchRewriter.rewrite(view, kept, claimed), claimed);
        recordsKept += kept.size();
        if (kept.isEmpty()) {
            batchesEmptied++;
        } else {
            batchesRewritten++;
        }
    }

    private void keep(VerifiedBatch batch, ByteBuffer bytes) throws IOException {
        write(batch.baseOffset(), bytes, batch.lastOffset());
        batchesKept++;
        recordsKept += batch.recordCount();
    }

    private void write(long baseOffset, ByteBuffer bytes, long lastOffset) throws TargetWriteException {
        try {
            if (firstOffset < 0 && writer != null) {
                writer.openSegment(segmentBase >= 0 ? segmentBase : baseOffset, segmentSize);
            }
            if (writer != null) {
                writer.append(bytes);
            }
        } catch (IOException e) {
            throw new TargetWriteException(e);
        }
        if (firstOffset < 0) {
            firstOffset = baseOffset;
        }
        bytesWritten += bytes.remaining();
        lastWritten = lastOffset;
    }

    /**
     * Writing the target failed while the archive was being read: told apart from a failed read, which is the
     * archive's fault rather than the target's.
     */
    static final class TargetWriteException extends IOException {
        @java.io.Serial
        private static final long serialVersionUID = 1L;

        TargetWriteException(IOException cause) {
            super(cause.getMessage(), cause);
        }
    }

    /** Whether any batch was written. */
    boolean wroteAny() {
        return firstOffset >= 0;
    }

    /** The restored segment's base offset: the archived segment's start, else its first written batch's. */
    long baseOffset() {
        return segmentBase >= 0 ? segmentBase : firstOffset;
    }

    /** The last offset the partition holds once this segment is written. */
    long lastWritten() {
        return lastWritten;
    }

    /** Whether the cut was reached: nothing after this segment's written batches belongs to the partition. */
    boolean reachedCut() {
        return cut;
    }
}
