package io.krabka.kernel.record;

import java.util.List;
import java.util.Objects;

/**
 * Records of a produce batch failed per-record checks (Kafka's {@code RecordValidationException}): the error
 * for the partition is {@link #invalidException()}, and every failed record is listed with its index.
 */
public final class RecordValidationException extends RecordException {

    private static final long serialVersionUID = 1L;

    private final RecordException invalidException;
    private final transient List<RecordError> recordErrors;

    /**
     * An error for a batch.
     *
     * @param invalidException the partition's error: {@link InvalidTimestampException} or {@link InvalidRecordException}
     * @param recordErrors     the failed records, at least one
     */
    public RecordValidationException(RecordException invalidException, List<RecordError> recordErrors) {
        super(invalidException.getMessage(), invalidException);
        if (recordErrors.isEmpty()) {
            throw new IllegalArgumentException("no record errors");
        }
        this.invalidException = Objects.requireNonNull(invalidException, "invalidException");
        this.recordErrors = List.copyOf(recordErrors);
    }

    /** The partition's error. */
    public RecordException invalidException() {
        return invalidException;
    }

    /** The failed records, in batch order. */
    public List<RecordError> recordErrors() {
        return recordErrors;
    }
}
