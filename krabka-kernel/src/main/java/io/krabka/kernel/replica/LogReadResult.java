package io.krabka.kernel.replica;

import io.krabka.kernel.log.AbortedTxn;
import io.krabka.kernel.log.BufferRecords;
import io.krabka.kernel.log.FetchRecords;
import io.krabka.kernel.log.LogOffsetMetadata;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apache.kafka.common.protocol.Errors;

/**
 * What a fetch read from one partition: Kafka's {@code LogReadResult}.
 *
 * @param partition           the partition as the fetch asked for it
 * @param error               the partition's error, {@link Errors#NONE} when read
 * @param records             the records read, a zero-copy slice of a segment; empty on error
 * @param highWatermark       the high watermark, -1 on error
 * @param lastStableOffset    the last stable offset, -1 on error
 * @param logStartOffset      the log start offset, -1 on error
 * @param abortedTransactions for read_committed, the aborted transactions overlapping the records
 * @param fetchOffsetMetadata where the read started (the fetch offset's segment and position); empty on error
 */
public record LogReadResult(
        FetchPartition partition,
        Errors error,
        FetchRecords records,
        long highWatermark,
        long lastStableOffset,
        long logStartOffset,
        Optional<List<AbortedTxn>> abortedTransactions,
        Optional<LogOffsetMetadata> fetchOffsetMetadata) {

    /** Checks the parts. */
    public LogReadResult {
        Objects.requireNonNull(partition, "partition");
        Objects.requireNonNull(error, "error");
        Objects.requireNonNull(records, "records");
        abortedTransactions = abortedTransactions.map(List::copyOf);
        Objects.requireNonNull(fetchOffsetMetadata, "fetchOffsetMetadata");
    }

    /** A failed read: Kafka answers the error with unknown offsets and no records. */
    public static LogReadResult failed(FetchPartition partition, Errors error) {
        return new LogReadResult(partition, error, BufferRecords.EMPTY, -1, -1, -1, Optional.empty(), Optional.empty());
    }
}
