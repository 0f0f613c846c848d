package io.krabka.kernel.tiered;

import io.krabka.kernel.log.AbortedTxn;
import io.krabka.kernel.log.LeaderEpochFileCache;
import io.krabka.kernel.log.LogSegment;
import io.krabka.kernel.log.TxnIndexSearchResult;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.log.checkpoint.EpochEntry;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.storage.RemoteLogMetadataManager;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteStorageException;
import java.io.IOException;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;

/**
 * The aborted transactions a read_committed fetch from the remote tier needs, as Kafka's
 * {@code RemoteLogManager.collectAbortedTransactions}: from the transaction indexes of the remote segments from the
 * one read on (skipping those whose index is empty, KIP-1058), then of the local segments, until an index says no
 * later segment can hold an abort overlapping the range.
 */
final class RemoteAbortedTransactions {

    private final RemoteLogMetadataManager rlmm;
    private final RemoteIndexCache indexCache;

    RemoteAbortedTransactions(RemoteLogMetadataManager rlmm, RemoteIndexCache indexCache) {
        this.rlmm = rlmm;
        this.indexCache = indexCache;
    }

    /** The aborted transactions overlapping [{@code startOffset}, {@code upperBoundOffset}), each once. */
    List<AbortedTxn> collect(long startOffset, long upperBoundOffset, RemoteLogSegmentMetadata segment, UnifiedLog log)
            throws RemoteStorageException, IOException {
        Set<AbortedTxn> aborted = new LinkedHashSet<>();
        boolean complete = false;
        Optional<RemoteLogSegmentMetadata> current = Optional.of(segment);
        while (!complete && current.isPresent()) {
            RemoteLogSegmentMetadata metadata = current.get();
            if (!metadata.txnIdxEmpty()) {
                TxnIndexSearchResult result = indexCache.collectAbortedTxns(metadata, startOffset, upperBoundOffset);
                aborted.addAll(result.abortedTransactions());
                complete = result.isComplete();
            }
            if (!complete) {
                current = nextSegmentWithTxnIndex(
                        metadata.topicIdPartition(), metadata.endOffset() + 1, log.leaderEpochCache());
            }
        }
        if (!complete) {
            for (LogSegment local : log.logSegments()) {
                TxnIndexSearchResult result = local.collectAbortedTxns(startOffset, upperBoundOffset);
                aborted.addAll(result.abortedTransactions());
                if (result.isComplete()) {
                    break;
                }
            }
        }
        return List.copyOf(aborted);
    }

    // Kafka's findNextSegmentWithTxnIndex: the offset's epoch and every later one, from the offset on.
    private Optional<RemoteLogSegmentMetadata> nextSegmentWithTxnIndex(
            TopicIdPartition partition, long offset, LeaderEpochFileCache epochs) throws RemoteStorageException {
        OptionalInt initialEpoch = epochs.epochForOffset(offset);
        if (initialEpoch.isEmpty()) {
            return Optional.empty();
        }
        for (EpochEntry entry : epochs.epochEntries()) {
            if (entry.epoch() >= initialEpoch.getAsInt()) {
                Optional<RemoteLogSegmentMetadata> found =
                        rlmm.nextSegmentWithTxnIndex(partition, entry.epoch(), Math.max(entry.startOffset(), offset));
                if (found.isPresent()) {
                    return found;
                }
            }
        }
        return Optional.empty();
    }
}
