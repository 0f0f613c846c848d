package io.krabka.kernel.log;

import java.io.Serial;

/**
 * An offset a segment cannot hold: more than {@link Integer#MAX_VALUE} above its base offset, or below it, so its
 * indexes cannot record it. Kafka's name, unchecked as there; the log splits a segment that holds one (a log
 * written by an old Kafka).
 */
public final class LogSegmentOffsetOverflowException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final long baseOffset;
    private final long offset;

    /** An offset {@code offset} refused by the segment at {@code baseOffset} whose file is {@code file}. */
    public LogSegmentOffsetOverflowException(String file, long baseOffset, long offset) {
        super("Detected offset overflow at offset " + offset + " in segment " + file + " with base offset "
                + baseOffset);
        this.baseOffset = baseOffset;
        this.offset = offset;
    }

    /** The base offset of the segment. */
    public long baseOffset() {
        return baseOffset;
    }

    /** The offset that does not fit. */
    public long offset() {
        return offset;
    }
}
