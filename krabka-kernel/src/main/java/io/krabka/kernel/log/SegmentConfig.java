package io.krabka.kernel.log;

import io.krabka.kernel.log.config.LogConfig;

/**
 * The topic settings a segment follows, resolved for one segment; the log's configuration makes one per segment
 * it opens.
 *
 * @param maxIndexSize       {@code segment.index.bytes}: the size the offset and time indexes are preallocated to
 * @param indexIntervalBytes {@code index.interval.bytes}: roughly how many bytes lie between index entries
 * @param rollJitterMs       this segment's random share of {@code segment.jitter.ms}, taken off {@code segment.ms}
 */
public record SegmentConfig(int maxIndexSize, int indexIntervalBytes, long rollJitterMs) {

    /** Checks the values. */
    public SegmentConfig {
        if (maxIndexSize < TimeIndex.ENTRY_SIZE || indexIntervalBytes < 0 || rollJitterMs < 0) {
            throw new IllegalArgumentException("out of range: segment.index.bytes " + maxIndexSize
                    + ", index.interval.bytes " + indexIntervalBytes + ", roll jitter " + rollJitterMs);
        }
    }

    /** A new segment's settings under the topic's {@code config}, with a fresh random share of the jitter. */
    public static SegmentConfig from(LogConfig config) {
        return new SegmentConfig(config.segmentIndexBytes(), config.indexIntervalBytes(), config.randomSegmentJitter());
    }
}
