package io.krabka.kernel.log;

/**
 * Where a batch lies in a segment file: Kafka's {@code FileRecords.LogOffsetPosition}.
 *
 * @param offset   the batch's base offset
 * @param position its byte position in the file
 * @param size     its size in bytes, offset and size fields included
 */
public record LogOffsetPosition(long offset, int position, int size) {

    /** Checks the position and size. */
    public LogOffsetPosition {
        if (position < 0 || size <= 0) {
            throw new IllegalArgumentException("position " + position + " or size " + size + " out of range");
        }
    }
}
