package io.krabka.kernel.log;

import io.krabka.spi.common.TopicPartition;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Validates the batches of one producer in one append against the producer's state, and accumulates the state
 * they lead to, without touching the partition's state: {@link ProducerStateManager#update} applies it once the
 * batches are written. Kafka's name and rules (Kafka 4.4, without KIP-890 transaction verification):
 *
 * <ul>
 *   <li>an epoch older than the producer's fails with {@link InvalidProducerEpochException} (from a replica it is
 *       only logged); a transaction-version-2 marker needs an epoch newer than the producer's, or equal to it when
 *       the transaction is already over (a retried marker);</li>
 *   <li>for a {@link AppendOrigin#CLIENT client}: a new epoch starts at sequence 0, a known epoch continues at the
 *       sequence after its last ({@link Integer#MAX_VALUE} wraps to 0), and a producer the partition has no epoch
 *       for may start anywhere; otherwise {@link OutOfOrderSequenceException};</li>
 *   <li>a transactional batch opens a transaction; a non-transactional one while a transaction is open fails with
 *       {@link InvalidTxnStateException}; a marker ends the open transaction (or is accepted with none open) and
 *       fails with {@link TransactionCoordinatorFencedException} when its coordinator epoch is older than the last
 *       one seen.</li>
 * </ul>
 *
 * <p>A refused batch leaves this object as it was. Used by one thread, under the partition's log lock.
 */
public final class ProducerAppendInfo {

    /** The transaction version of a marker whose version is not known: on a replica, or when rebuilding state. */
    public static final short TV_UNKNOWN = -1;

    private static final System.Logger LOG = System.getLogger(ProducerAppendInfo.class.getName());

    private final TopicPartition topicPartition;
    private final long producerId;
    private final ProducerStateEntry currentEntry;
    private final AppendOrigin origin;
    private final ProducerStateEntry updatedEntry;
    private final List<TxnMetadata> transactions = new ArrayList<>();

    /**
     * Starts from the producer's state before this append.
     *
     * @param topicPartition the partition, for messages
     * @param producerId     the producer
     * @param currentEntry   its state after the last append
     * @param origin         where the append comes from, which decides what is validated
     */
    public ProducerAppendInfo(
            TopicPartition topicPartition, long producerId, ProducerStateEntry currentEntry, AppendOrigin origin) {
        this.topicPartition = Objects.requireNonNull(topicPartition, "topicPartition");
        this.producerId = producerId;
        this.currentEntry = Objects.requireNonNull(currentEntry, "currentEntry");
        this.origin = Objects.requireNonNull(origin, "origin");
        this.updatedEntry = currentEntry.withoutBatches();
    }

    /** The producer. */
    public long producerId() {
        return producerId;
    }

    /** Validates and adds a batch whose first offset's position is not known; markers only from replicas. */
    public Optional<CompletedTxn> append(ProducerBatch batch) {
        return append(batch, Optional.empty(), TV_UNKNOWN);
    }

    /**
     * Validates and adds a batch.
     *
     * @param batch               the batch
     * @param firstOffsetMetadata the position of a data batch's first offset, if the log knows it
     * @param transactionVersion  a marker's transaction version, required unless the origin is a replica
     * @return the transaction a marker completes, if one was open
     * @throws ProducerStateException if the batch does not follow from the producer's state
     */
    public Optional<CompletedTxn> append(
            ProducerBatch batch, Optional<LogOffsetMetadata> firstOffsetMetadata, short transactionVersion) {
        if (batch.producerId() != producerId) {
            throw new IllegalArgumentException(
                    "batch of producer " + batch.producerId() + " given to the append of " + producerId);
        }
        return switch (batch) {
            case ProducerBatch.Data data -> {
                LogOffsetMetadata first =
                        firstOffsetMetadata.orElseGet(() -> new LogOffsetMetadata(data.firstOffset()));
                if (first.messageOffset() != data.firstOffset()) {
                    throw new IllegalArgumentException("first offset metadata " + first
                            + " is not at the batch's first offset " + data.firstOffset());
                }
                appendDataBatch(
                        data.producerEpoch(),
                        data.baseSequence(),
                        data.lastSequence(),
                        data.maxTimestamp(),
                        first,
                        data.lastOffset(),
                        data.isTransactional());
                yield Optional.empty();
            }
            case ProducerBatch.EndTxnMarker marker ->
                appendEndTxnMarker(
                        marker.result(),
                        marker.coordinatorEpoch(),
                        marker.producerEpoch(),
                        marker.offset(),
                        marker.timestamp(),
                        transactionVersion);
            // The cleaner removed the whole transaction: nothing to validate or complete.
            case ProducerBatch.EmptyControl ignored -> Optional.empty();
        };
    }

    /**
     * Validates and adds a data batch.
     *
     * @throws ProducerStateException if the batch does not follow from the producer's state
     */
    public void appendDataBatch(
            short epoch,
            int firstSeq,
            int lastSeq,
            long lastTimestamp,
            LogOffsetMetadata firstOffsetMetadata,
            long lastOffset,
            boolean isTransactional) {
        long firstOffset = firstOffsetMetadata.messageOffset();
        checkProducerEpoch(epoch, firstOffset, TV_UNKNOWN);
        if (origin == AppendOrigin.CLIENT) {
            checkSequence(epoch, firstSeq, firstOffset);
        }
        OptionalLong openTxn = updatedEntry.currentTxnFirstOffset();
        if (openTxn.isPresent() && !isTransactional) {
            throw new InvalidTxnStateException(
                    "Expected transactional write from producer " + producerId + " at offset "
                            + firstOffset + " in partition " + topicPartition + ": its transaction from offset "
                            + openTxn.getAsLong() + " is open");
        }
        updatedEntry.addBatch(epoch, lastSeq, lastOffset, Math.toIntExact(lastOffset - firstOffset), lastTimestamp);
        if (openTxn.isEmpty() && isTransactional) {
            updatedEntry.setCurrentTxnFirstOffset(firstOffset);
            transactions.add(new TxnMetadata(producerId, firstOffsetMetadata));
        }
    }

    /**
     * Validates and adds an end-transaction marker.
     *
     * @param transactionVersion the marker's transaction version (2 and above: the coordinator bumped the epoch),
     *                           or {@link #TV_UNKNOWN} for an append from a replica
     * @return the transaction it completes, if one was open
     * @throws ProducerStateException if the marker's epochs are stale
     */
    public Optional<CompletedTxn> appendEndTxnMarker(
            TransactionResult result,
            int coordinatorEpoch,
            short producerEpoch,
            long offset,
            long timestamp,
            short transactionVersion) {
        if (transactionVersion == TV_UNKNOWN && origin != AppendOrigin.REPLICATION) {
            throw new IllegalArgumentException("a marker from origin " + origin + " needs its transaction version");
        }
        // A replica does not know the version; the leader checked the stricter rule already.
        checkProducerEpoch(producerEpoch, offset, transactionVersion == TV_UNKNOWN ? 0 : transactionVersion);
        checkCoordinatorEpoch(coordinatorEpoch, offset);
        OptionalLong openTxn = updatedEntry.currentTxnFirstOffset();
        // A marker of an empty transaction changes neither the last stable offset nor the transaction index.
        Optional<CompletedTxn> completed = openTxn.isPresent()
                ? Optional.of(
                        new CompletedTxn(producerId, openTxn.getAsLong(), offset, result == TransactionResult.ABORT))
                : Optional.empty();
        updatedEntry.update(producerEpoch, coordinatorEpoch, timestamp);
        return completed;
    }

    private void checkProducerEpoch(short producerEpoch, long offset, short transactionVersion) {
        short current = updatedEntry.producerEpoch();
        boolean strict = transactionVersion >= 2;
        if (strict ? producerEpoch > current : producerEpoch >= current) {
            return;
        }
        // A version-2 marker at the current epoch retries one already written (the transaction is over), or comes
        // from a producer whose epoch cannot be bumped any more.
        if (strict
                && producerEpoch == current
                && (updatedEntry.currentTxnFirstOffset().isEmpty() || producerEpoch == Short.MAX_VALUE)) {
            return;
        }
        String message = "Epoch of producer " + producerId + " at offset " + offset + " in " + topicPartition + " is "
                + producerEpoch + ", which is " + (strict ? "<=" : "<") + " the last seen epoch " + current
                + " (TV" + transactionVersion + ")";
        if (origin == AppendOrigin.REPLICATION) {
            LOG.log(System.Logger.Level.WARNING, message);
        } else {
            throw new InvalidProducerEpochException(message);
        }
    }

    private void checkSequence(short producerEpoch, int appendFirstSeq, long offset) {
        if (producerEpoch != updatedEntry.producerEpoch()) {
            if (appendFirstSeq != 0 && updatedEntry.producerEpoch() != ProducerBatch.NO_PRODUCER_EPOCH) {
                throw new OutOfOrderSequenceException("Invalid sequence number for new epoch of producer " + producerId
                        + " at offset " + offset + " in partition " + topicPartition + ": " + producerEpoch
                        + " (request epoch), " + appendFirstSeq + " (seq. number), " + updatedEntry.producerEpoch()
                        + " (current producer epoch)");
            }
            return;
        }
        int currentLastSeq;
        if (!updatedEntry.isEmpty()) {
            currentLastSeq = updatedEntry.lastSeq();
        } else if (producerEpoch == currentEntry.producerEpoch()) {
            currentLastSeq = currentEntry.lastSeq();
        } else {
            currentLastSeq = ProducerBatch.NO_SEQUENCE;
        }
        // With no epoch known (retention or DeleteRecords removed the producer's batches) any sequence is accepted.
        if (currentEntry.producerEpoch() != ProducerBatch.NO_PRODUCER_EPOCH
                && !inSequence(currentLastSeq, appendFirstSeq)) {
            throw new OutOfOrderSequenceException("Out of order sequence number for producer " + producerId
                    + " at offset "
                    + offset + " in partition " + topicPartition + ": " + appendFirstSeq + " (incoming seq. number), "
                    + currentLastSeq + " (current end sequence number)");
        }
    }

    private static boolean inSequence(int lastSeq, int nextSeq) {
        return nextSeq == lastSeq + 1L || (nextSeq == 0 && lastSeq == Integer.MAX_VALUE);
    }

    private void checkCoordinatorEpoch(int coordinatorEpoch, long offset) {
        if (updatedEntry.coordinatorEpoch() <= coordinatorEpoch) {
            return;
        }
        String message = "Invalid coordinator epoch for producerId " + producerId + " at offset " + offset
                + " in partition " + topicPartition + ": " + coordinatorEpoch + " (zombie), "
                + updatedEntry.coordinatorEpoch() + " (current)";
        if (origin == AppendOrigin.REPLICATION) {
            LOG.log(System.Logger.Level.INFO, message);
        } else {
            throw new TransactionCoordinatorFencedException(message);
        }
    }

    /** The producer's state after the batches added so far. */
    public ProducerStateEntry toEntry() {
        return updatedEntry;
    }

    /** The transactions the batches added so far opened, in order. */
    public List<TxnMetadata> startedTransactions() {
        return Collections.unmodifiableList(transactions);
    }

    @Override
    public String toString() {
        return "ProducerAppendInfo(producerId=" + producerId + ", producerEpoch=" + updatedEntry.producerEpoch()
                + ", firstSequence=" + updatedEntry.firstSeq() + ", lastSequence=" + updatedEntry.lastSeq()
                + ", currentTxnFirstOffset=" + updatedEntry.currentTxnFirstOffset() + ", coordinatorEpoch="
                + updatedEntry.coordinatorEpoch() + ", lastTimestamp=" + updatedEntry.lastTimestamp()
                + ", startedTransactions=" + transactions + ')';
    }
}
