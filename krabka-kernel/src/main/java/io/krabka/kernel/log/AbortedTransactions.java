package io.krabka.kernel.log;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

/** The aborted transactions a read_committed fetch needs, from the segments' transaction indexes. */
final class AbortedTransactions {

    private AbortedTransactions() {}

    /**
     * {@code fetchInfo} with the aborted transactions overlapping its records, as Kafka's
     * {@code addAbortedTransactions}: up to the first offset index entry past the fetched bytes, or the next
     * segment's base offset, or the log end.
     */
    static FetchDataInfo add(
            LogSegments segments, long startOffset, LogSegment segment, FetchDataInfo fetchInfo, long logEndOffset) {
        LogOffsetMetadata start = fetchInfo.fetchOffsetMetadata();
        OffsetPosition startOffsetPosition =
                new OffsetPosition(start.messageOffset(), start.relativePositionInSegment());
        long upperBoundOffset = segment.fetchUpperBoundOffset(
                        startOffsetPosition, fetchInfo.records().sizeInBytes())
                .orElseGet(() -> segments.higherSegment(segment.baseOffset())
                        .map(LogSegment::baseOffset)
                        .orElse(logEndOffset));
        List<AbortedTxn> aborted = collect(segments, startOffset, upperBoundOffset, segment);
        return new FetchDataInfo(start, fetchInfo.records(), fetchInfo.firstEntryIncomplete(), Optional.of(aborted));
    }

    /**
     * The aborted transactions overlapping [{@code startOffset}, {@code upperBoundOffset}), from
     * {@code startingSegment} on until a segment's index says no later one can hold any.
     */
    static List<AbortedTxn> collect(
            LogSegments segments, long startOffset, long upperBoundOffset, LogSegment startingSegment) {
        List<AbortedTxn> aborted = new ArrayList<>();
        Iterator<LogSegment> higher =
                segments.higherSegments(startingSegment.baseOffset()).iterator();
        LogSegment segment = startingSegment;
        while (segment != null) {
            TxnIndexSearchResult result = segment.collectAbortedTxns(startOffset, upperBoundOffset);
            aborted.addAll(result.abortedTransactions());
            if (result.isComplete()) {
                break;
            }
            segment = higher.hasNext() ? higher.next() : null;
        }
        return aborted;
    }
}
