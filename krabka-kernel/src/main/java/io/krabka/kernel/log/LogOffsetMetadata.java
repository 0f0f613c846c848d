package io.krabka.kernel.log;

/**
 * An offset, and where its batch sits when that is known: the base offset of its segment and the byte position
 * in that segment. Kafka's name. Producer state keeps it for the first offset of each open transaction, so that
 * the first unstable offset comes with its position and a fetch need not look it up.
 *
 * @param messageOffset             the offset
 * @param segmentBaseOffset         the base offset of the segment holding it, or {@link #UNKNOWN_OFFSET}
 * @param relativePositionInSegment the byte position of its batch in that segment, or {@link #UNKNOWN_FILE_POSITION}
 */
public record LogOffsetMetadata(long messageOffset, long segmentBaseOffset, int relativePositionInSegment) {

    /** The segment is not known. */
    public static final long UNKNOWN_OFFSET = -1L;

    /** The position in the segment is not known. */
    public static final int UNKNOWN_FILE_POSITION = -1;

    /** Validates the offsets. */
    public LogOffsetMetadata {
        if (messageOffset < 0) {
            throw new IllegalArgumentException("negative offset " + messageOffset);
        }
        if (segmentBaseOffset < UNKNOWN_OFFSET || segmentBaseOffset > messageOffset) {
            throw new IllegalArgumentException("segment base offset " + segmentBaseOffset
                    + " is not unknown and not at or below the offset " + messageOffset);
        }
        if (relativePositionInSegment < UNKNOWN_FILE_POSITION) {
            throw new IllegalArgumentException("position in segment out of range: " + relativePositionInSegment);
        }
    }

    /** Only the offset, its segment and position unknown. */
    public LogOffsetMetadata(long messageOffset) {
        this(messageOffset, UNKNOWN_OFFSET, UNKNOWN_FILE_POSITION);
    }

    /** Whether only the offset is known, so a reader must find its segment and position itself. */
    public boolean messageOffsetOnly() {
        return segmentBaseOffset == UNKNOWN_OFFSET && relativePositionInSegment == UNKNOWN_FILE_POSITION;
    }
}
