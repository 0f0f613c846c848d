package io.krabka.kernel.replica;

import io.krabka.kernel.record.RecordError;
import java.util.List;
import java.util.Objects;
import org.apache.kafka.common.protocol.Errors;

/**
 * What a produce did to one partition: Kafka's {@code ProduceResponse.PartitionResponse}.
 *
 * @param error          the partition's error, {@link Errors#NONE} on success
 * @param errorMessage   why it failed, or null
 * @param baseOffset     the offset of the first record appended (or of the duplicate's), -1 on error
 * @param logAppendTime  the broker's time given to the records under LogAppendTime, else -1
 * @param logStartOffset the log start offset, -1 when unknown
 * @param recordErrors   the records refused, with their indexes
 */
public record ProducePartitionResult(
        Errors error,
        String errorMessage,
        long baseOffset,
        long logAppendTime,
        long logStartOffset,
        List<RecordError> recordErrors) {

    /** Checks the parts and freezes the list. */
    public ProducePartitionResult {
        Objects.requireNonNull(error, "error");
        recordErrors = List.copyOf(recordErrors);
    }

    /** A failure with Kafka's error and message, nothing appended. */
    public static ProducePartitionResult failed(Errors error, String errorMessage) {
        return new ProducePartitionResult(error, errorMessage, -1, -1, -1, List.of());
    }
}
