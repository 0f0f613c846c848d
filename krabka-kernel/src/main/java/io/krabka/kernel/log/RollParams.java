package io.krabka.kernel.log;

/**
 * What decides whether an append rolls the active segment: Kafka's {@code RollParams}.
 *
 * @param maxSegmentMs           {@code segment.ms}
 * @param maxSegmentBytes        {@code segment.bytes}
 * @param maxTimestampInMessages the largest timestamp of the records to append
 * @param maxOffsetInMessages    the last offset of the records to append
 * @param messagesSize           the size of the records to append
 * @param now                    the broker's clock
 */
public record RollParams(
        long maxSegmentMs,
        int maxSegmentBytes,
        long maxTimestampInMessages,
        long maxOffsetInMessages,
        int messagesSize,
        long now) {

    /** Checks the limits. */
    public RollParams {
        if (maxSegmentMs < 0 || maxSegmentBytes < 0 || messagesSize < 0) {
            throw new IllegalArgumentException("negative limit or size: segment.ms " + maxSegmentMs + ", segment.bytes "
                    + maxSegmentBytes + ", messages " + messagesSize);
        }
    }
}
