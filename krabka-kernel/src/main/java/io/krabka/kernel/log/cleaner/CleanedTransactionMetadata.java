package io.krabka.kernel.log.cleaner;

import io.krabka.kernel.log.AbortedTxn;
import io.krabka.kernel.log.TransactionIndex;
import io.krabka.kernel.record.ControlRecordType;
import io.krabka.kernel.record.RecordBatch;
import io.krabka.kernel.record.RecordCursor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.Set;

/**
 * The transactions a cleaning is inside of as it goes through a log, Kafka's {@code CleanedTransactionMetadata}:
 * which producers' open transactions were aborted (from the transaction index, known ahead since the cleaner never
 * goes past the last stable offset) and which committed. It decides that an aborted transaction's batches go, and
 * when a transaction's marker may go: an abort marker once no batch of its transaction is left, a commit marker
 * once the cleaning saw none of its batches (the delete horizon then decides, as for tombstones). The aborted
 * transactions whose markers stay are written to the cleaned segment's transaction index.
 */
final class CleanedTransactionMetadata {

    private final Set<Long> ongoingCommittedTxns = new HashSet<>();
    private final Map<Long, AbortedTransactionMetadata> ongoingAbortedTxns = new HashMap<>();
    private final PriorityQueue<AbortedTxn> abortedTransactions =
            new PriorityQueue<>(Comparator.comparingLong(AbortedTxn::firstOffset));
    private Optional<TransactionIndex> cleanedIndex = Optional.empty();

    /** An aborted transaction met while cleaning and the last of its batches seen, if any. */
    private static final class AbortedTransactionMetadata {
        final AbortedTxn abortedTxn;
        boolean batchSeen;

        AbortedTransactionMetadata(AbortedTxn abortedTxn) {
            this.abortedTxn = abortedTxn;
        }
    }

    /** Where the aborted transactions whose markers stay go: the transaction index of the segment being written. */
    void setCleanedIndex(TransactionIndex index) {
        cleanedIndex = Optional.of(index);
    }

    /** Adds aborted transactions found ahead in the transaction index. */
    void addAbortedTransactions(List<AbortedTxn> aborted) {
        abortedTransactions.addAll(aborted);
    }

    /**
     * Takes in a control batch met while cleaning.
     *
     * @return whether it may be discarded (subject to its delete horizon)
     */
    boolean onControlBatchRead(RecordBatch controlBatch, long maxDecompressedBytes) {
        consumeAbortedTxnsUpTo(controlBatch.lastOffset());
        ControlRecordType type;
        try (RecordCursor cursor = controlBatch.cursor(maxDecompressedBytes)) {
            if (!cursor.next()) {
                // An empty control batch was cleaned before: nothing left to keep.
                return true;
            }
            type = ControlRecordType.parse(cursor.key());
        }
        long producerId = controlBatch.producerId();
        return switch (type) {
            case ABORT -> {
                AbortedTransactionMetadata aborted = ongoingAbortedTxns.remove(producerId);
                // The marker stays until every batch of its transaction is gone.
                if (aborted != null && aborted.batchSeen) {
                    cleanedIndex.ifPresent(index -> append(index, aborted.abortedTxn));
                    yield false;
                }
                yield true;
            }
            // A commit marker may go once the cleaning saw no batch of its transaction.
            case COMMIT -> !ongoingCommittedTxns.remove(producerId);
            default -> false;
        };
    }

    /**
     * Takes in a batch of records met while cleaning.
     *
     * @return whether it belongs to an aborted transaction, and goes
     */
    boolean onBatchRead(RecordBatch batch) {
        consumeAbortedTxnsUpTo(batch.lastOffset());
        if (!batch.isTransactional()) {
            return false;
        }
        AbortedTransactionMetadata aborted = ongoingAbortedTxns.get(batch.producerId());
        if (aborted != null) {
            aborted.batchSeen = true;
            return true;
        }
        ongoingCommittedTxns.add(batch.producerId());
        return false;
    }

    private void consumeAbortedTxnsUpTo(long offset) {
        while (!abortedTransactions.isEmpty() && abortedTransactions.peek().firstOffset() <= offset) {
            AbortedTxn aborted = abortedTransactions.poll();
            ongoingAbortedTxns.putIfAbsent(aborted.producerId(), new AbortedTransactionMetadata(aborted));
        }
    }

    private static void append(TransactionIndex index, AbortedTxn aborted) {
        try {
            index.append(aborted);
        } catch (IOException e) {
            throw new UncheckedIOException("writing the cleaned transaction index " + index.file(), e);
        }
    }
}
