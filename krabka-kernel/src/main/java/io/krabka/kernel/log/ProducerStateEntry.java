package io.krabka.kernel.log;

import java.util.ArrayDeque;
import java.util.Collection;
import java.util.Collections;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What a partition knows of one producer: its epoch, the coordinator epoch of its last marker, the offset of its
 * open transaction, and its last {@value #NUM_BATCHES_TO_RETAIN} batches of the current epoch, oldest first, to
 * detect retries. Kafka's name and rules.
 *
 * <p>Mutable, and only changed by the producer state of its partition, under the partition's log lock; read it
 * under that lock too.
 */
public final class ProducerStateEntry {

    /** How many of a producer's last batches are kept to recognise a retried one. */
    public static final int NUM_BATCHES_TO_RETAIN = 5;

    private final long producerId;
    private final ArrayDeque<BatchMetadata> batchMetadata = new ArrayDeque<>(NUM_BATCHES_TO_RETAIN);
    private short producerEpoch;
    private int coordinatorEpoch;
    private long lastTimestamp;
    private OptionalLong currentTxnFirstOffset;

    /**
     * An entry without batches.
     *
     * @param producerId            the producer
     * @param producerEpoch         its epoch, or {@link ProducerBatch#NO_PRODUCER_EPOCH}
     * @param coordinatorEpoch      the coordinator epoch of its last marker, or -1
     * @param lastTimestamp         the timestamp of its last batch or marker, or {@link ProducerBatch#NO_TIMESTAMP}
     * @param currentTxnFirstOffset the first offset of its open transaction, if one is open
     */
    public ProducerStateEntry(
            long producerId,
            short producerEpoch,
            int coordinatorEpoch,
            long lastTimestamp,
            OptionalLong currentTxnFirstOffset) {
        this.producerId = producerId;
        this.producerEpoch = producerEpoch;
        this.coordinatorEpoch = coordinatorEpoch;
        this.lastTimestamp = lastTimestamp;
        this.currentTxnFirstOffset = Objects.requireNonNull(currentTxnFirstOffset, "currentTxnFirstOffset");
    }

    /** A producer the partition knows nothing of. */
    static ProducerStateEntry empty(long producerId) {
        return new ProducerStateEntry(
                producerId, ProducerBatch.NO_PRODUCER_EPOCH, -1, ProducerBatch.NO_TIMESTAMP, OptionalLong.empty());
    }

    /** This entry's epoch, coordinator epoch, timestamp and open transaction, without its batches. */
    ProducerStateEntry withoutBatches() {
        return new ProducerStateEntry(
                producerId, producerEpoch, coordinatorEpoch, lastTimestamp, currentTxnFirstOffset);
    }

    /** Adds a batch, forgetting the batches of an older epoch and the oldest beyond the retained number. */
    void addBatch(short producerEpoch, int lastSeq, long lastOffset, int offsetDelta, long timestamp) {
        BatchMetadata batch = new BatchMetadata(lastSeq, lastOffset, offsetDelta, timestamp);
        maybeUpdateProducerEpoch(producerEpoch);
        addBatchMetadata(batch);
        this.lastTimestamp = timestamp;
    }

    /** Takes the epoch, batches, coordinator epoch, timestamp and open transaction of a later state. */
    void update(ProducerStateEntry next) {
        maybeUpdateProducerEpoch(next.producerEpoch);
        next.batchMetadata.forEach(this::addBatchMetadata);
        this.coordinatorEpoch = next.coordinatorEpoch;
        this.currentTxnFirstOffset = next.currentTxnFirstOffset;
        this.lastTimestamp = next.lastTimestamp;
    }

    /** Records a transaction marker: the epoch it was written with, its coordinator and time; no open transaction. */
    void update(short producerEpoch, int coordinatorEpoch, long lastTimestamp) {
        maybeUpdateProducerEpoch(producerEpoch);
        this.coordinatorEpoch = coordinatorEpoch;
        this.currentTxnFirstOffset = OptionalLong.empty();
        this.lastTimestamp = lastTimestamp;
    }

    void setCurrentTxnFirstOffset(long firstOffset) {
        this.currentTxnFirstOffset = OptionalLong.of(firstOffset);
    }

    private void maybeUpdateProducerEpoch(short producerEpoch) {
        if (this.producerEpoch != producerEpoch) {
            batchMetadata.clear();
            this.producerEpoch = producerEpoch;
        }
    }

    private void addBatchMetadata(BatchMetadata batch) {
        if (batchMetadata.size() == NUM_BATCHES_TO_RETAIN) {
            batchMetadata.removeFirst();
        }
        batchMetadata.addLast(batch);
    }

    /**
     * The retained batch that {@code batch} retries: same epoch, same first and last sequence. The log answers a
     * retry with the offsets of that batch instead of appending it again.
     */
    public Optional<BatchMetadata> findDuplicateBatch(ProducerBatch batch) {
        if (!(batch instanceof ProducerBatch.Data data) || data.producerEpoch() != producerEpoch) {
            return Optional.empty();
        }
        for (BatchMetadata retained : batchMetadata) {
            if (retained.firstSeq() == data.baseSequence() && retained.lastSeq() == data.lastSequence()) {
                return Optional.of(retained);
            }
        }
        return Optional.empty();
    }

    /** The first sequence of the oldest retained batch, or {@link ProducerBatch#NO_SEQUENCE}. */
    public int firstSeq() {
        return isEmpty() ? ProducerBatch.NO_SEQUENCE : batchMetadata.getFirst().firstSeq();
    }

    /** The last sequence of the newest retained batch, or {@link ProducerBatch#NO_SEQUENCE}. */
    public int lastSeq() {
        return isEmpty() ? ProducerBatch.NO_SEQUENCE : batchMetadata.getLast().lastSeq();
    }

    /** The first offset of the oldest retained batch, or -1. */
    public long firstDataOffset() {
        return isEmpty() ? -1L : batchMetadata.getFirst().firstOffset();
    }

    /** The last offset of the newest retained batch, or -1. */
    public long lastDataOffset() {
        return isEmpty() ? -1L : batchMetadata.getLast().lastOffset();
    }

    /** The offset delta of the newest retained batch, or 0. */
    public int lastOffsetDelta() {
        return isEmpty() ? 0 : batchMetadata.getLast().offsetDelta();
    }

    /** Whether no batch of the current epoch is retained. */
    public boolean isEmpty() {
        return batchMetadata.isEmpty();
    }

    /** The retained batches, oldest first. */
    public Collection<BatchMetadata> batchMetadata() {
        return Collections.unmodifiableCollection(batchMetadata);
    }

    /** The producer. */
    public long producerId() {
        return producerId;
    }

    /** Its epoch, or {@link ProducerBatch#NO_PRODUCER_EPOCH}. */
    public short producerEpoch() {
        return producerEpoch;
    }

    /** The coordinator epoch of its last marker, or -1. */
    public int coordinatorEpoch() {
        return coordinatorEpoch;
    }

    /** The timestamp of its last batch or marker. */
    public long lastTimestamp() {
        return lastTimestamp;
    }

    /** The first offset of its open transaction, if one is open. */
    public OptionalLong currentTxnFirstOffset() {
        return currentTxnFirstOffset;
    }

    @Override
    public String toString() {
        return "ProducerStateEntry(producerId=" + producerId + ", producerEpoch=" + producerEpoch
                + ", currentTxnFirstOffset=" + currentTxnFirstOffset + ", coordinatorEpoch=" + coordinatorEpoch
                + ", lastTimestamp=" + lastTimestamp + ", batchMetadata=" + batchMetadata + ')';
    }
}
