package io.krabka.kernel.log;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a read returns: Kafka's {@code FetchDataInfo}.
 *
 * @param fetchOffsetMetadata  the base offset of the first batch read, with its segment and position
 * @param records              the batches, as bytes to send
 * @param firstEntryIncomplete whether the first batch is larger than the read allowed, so only part of it (or
 *                             none) is in {@code records}
 * @param abortedTransactions  for read_committed fetches, the aborted transactions overlapping the records
 */
public record FetchDataInfo(
        LogOffsetMetadata fetchOffsetMetadata,
        FetchRecords records,
        boolean firstEntryIncomplete,
        Optional<List<AbortedTxn>> abortedTransactions) {

    /** Checks the parts and freezes the list. */
    public FetchDataInfo {
        Objects.requireNonNull(fetchOffsetMetadata, "fetchOffsetMetadata");
        Objects.requireNonNull(records, "records");
        abortedTransactions = abortedTransactions.map(List::copyOf);
    }

    /** Records read whole, without aborted transactions. */
    public FetchDataInfo(LogOffsetMetadata fetchOffsetMetadata, FetchRecords records) {
        this(fetchOffsetMetadata, records, false, Optional.empty());
    }
}
