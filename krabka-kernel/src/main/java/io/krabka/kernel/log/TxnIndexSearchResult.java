package io.krabka.kernel.log;

import java.util.List;

/**
 * The aborted transactions of one segment that overlap a fetch range.
 *
 * @param abortedTransactions the overlapping transactions, in index order
 * @param isComplete          whether the search can stop here: an entry's last stable offset reached the end of
 *                            the range, so no later segment holds an abort that overlaps it
 */
public record TxnIndexSearchResult(List<AbortedTxn> abortedTransactions, boolean isComplete) {

    /** Freezes the list. */
    public TxnIndexSearchResult {
        abortedTransactions = List.copyOf(abortedTransactions);
    }
}
