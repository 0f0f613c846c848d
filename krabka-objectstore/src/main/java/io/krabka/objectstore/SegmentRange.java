package io.krabka.objectstore;

import io.krabka.spi.storage.InvalidRangeException;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import java.util.Optional;

/**
 * The bytes of a segment's log a fetch reads, from Kafka's positions: {@code startPosition} to {@code endPosition}
 * clipped to the log's last byte.
 *
 * @param from        the first byte
 * @param toInclusive the last byte
 */
public record SegmentRange(long from, long toInclusive) {

    /**
     * The range of a fetch; empty when it starts at the log's size, so nothing need be read.
     *
     * @throws InvalidRangeException if {@code startPosition} is negative or beyond the segment's size, or
     *                               {@code endPosition} is before it
     */
    public static Optional<SegmentRange> of(RemoteLogSegmentMetadata metadata, int startPosition, int endPosition)
            throws InvalidRangeException {
        int size = metadata.segmentSizeInBytes();
        if (startPosition < 0 || endPosition < startPosition || startPosition > size) {
            throw new InvalidRangeException("invalid byte range [" + startPosition + ", " + endPosition
                    + "] of segment " + metadata.remoteLogSegmentId().id() + " of " + metadata.topicIdPartition() + " ("
                    + size + " bytes)");
        }
        return startPosition == size
                ? Optional.empty()
                : Optional.of(new SegmentRange(startPosition, Math.min(endPosition, size - 1)));
    }
}
