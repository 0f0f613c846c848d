package io.krabka.kernel.log;

import io.krabka.kernel.record.CompressionType;
import io.krabka.kernel.record.RecordBatch;
import io.krabka.kernel.record.RecordError;
import java.util.List;
import java.util.Objects;
import java.util.OptionalInt;

/**
 * What an append did, Kafka's {@code LogAppendInfo}: what a produce response reports. For a retried batch the log
 * already holds (a duplicate), the offsets of the batch appended before and nothing appended now.
 *
 * @param firstOffset       the offset of the first record
 * @param lastOffset        the offset of the last record
 * @param lastLeaderEpoch   the partition leader epoch of the last batch, if it has one
 * @param maxTimestamp      the largest record timestamp (the append time under LogAppendTime), or -1
 * @param logAppendTime     the broker time given to the records under LogAppendTime, else -1 (for a duplicate,
 *                          Kafka's choice: the timestamp of the batch appended before)
 * @param logStartOffset    the log start offset after the append
 * @param sourceCompression the codec the producer used
 * @param validBytes        the size of the records as sent, or -1 when unknown
 * @param recordErrors      the records refused, with their indexes, when the append failed validation
 */
public record LogAppendInfo(
        long firstOffset,
        long lastOffset,
        OptionalInt lastLeaderEpoch,
        long maxTimestamp,
        long logAppendTime,
        long logStartOffset,
        CompressionType sourceCompression,
        int validBytes,
        List<RecordError> recordErrors) {

    /** An offset not known: Kafka's {@code UnifiedLog.UNKNOWN_OFFSET}. */
    public static final long UNKNOWN_OFFSET = -1L;

    /** Checks the parts and freezes the list. */
    public LogAppendInfo {
        Objects.requireNonNull(lastLeaderEpoch, "lastLeaderEpoch");
        Objects.requireNonNull(sourceCompression, "sourceCompression");
        recordErrors = List.copyOf(recordErrors);
    }

    /**
     * The answer for an append that failed: offsets unknown, with the log start offset and the records refused
     * (empty unless the failure was a {@link io.krabka.kernel.record.RecordValidationException}). Kafka's
     * {@code unknownLogAppendInfoWithAdditionalInfo}.
     */
    public static LogAppendInfo unknown(long logStartOffset, List<RecordError> recordErrors) {
        return new LogAppendInfo(
                UNKNOWN_OFFSET,
                UNKNOWN_OFFSET,
                OptionalInt.empty(),
                RecordBatch.NO_TIMESTAMP,
                RecordBatch.NO_TIMESTAMP,
                logStartOffset,
                CompressionType.NONE,
                -1,
                recordErrors);
    }
}
