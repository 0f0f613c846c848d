package io.krabka.kernel.record;

import java.util.Objects;

/**
 * One rejected record of a produce batch: Kafka's {@code RecordError}, sent back as {@code BatchIndex} and
 * {@code BatchIndexErrorMessage}.
 *
 * @param batchIndex the record's index in its batch, from zero
 * @param message    why it was rejected
 */
public record RecordError(int batchIndex, String message) {

    /** Checks the index and message. */
    public RecordError {
        if (batchIndex < 0) {
            throw new IllegalArgumentException("batch index is negative: " + batchIndex);
        }
        Objects.requireNonNull(message, "message");
    }
}
