package io.krabka.plugin.rsm.local;

import io.krabka.spi.storage.InvalidRangeException;

/**
 * The byte range of a segment fetch: {@code start} to {@code end}, both inclusive, {@code end} clamped to the
 * segment's last byte. A range that starts right at the end of the segment is valid and empty.
 *
 * @param start   the first byte
 * @param end     the last byte asked for
 * @param segment the segment, for messages
 */
record FetchRange(int start, int end, String segment) {

    /**
     * A range whose ends are in order.
     *
     * @throws InvalidRangeException if {@code start} is negative or {@code end} is before it
     */
    static FetchRange of(int start, int end, String segment) throws InvalidRangeException {
        if (start < 0) {
            throw invalid(start, end, segment, "start is negative");
        }
        if (end < start) {
            throw invalid(start, end, segment, "end is before start");
        }
        return new FetchRange(start, end, segment);
    }

    /**
     * The number of bytes the range covers in a segment of {@code size} bytes.
     *
     * @throws InvalidRangeException if the range starts beyond the end of the segment
     */
    long lengthWithin(long size) throws InvalidRangeException {
        if (start > size) {
            throw invalid(start, end, segment, "start is beyond the end of its " + size + " bytes");
        }
        return Math.min((long) end, size - 1) - start + 1;
    }

    private static InvalidRangeException invalid(int start, int end, String segment, String why) {
        return new InvalidRangeException("invalid byte range [" + start + ", " + end + "] of " + segment + ": " + why);
    }
}
