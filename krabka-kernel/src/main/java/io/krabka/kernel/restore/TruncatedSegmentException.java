package io.krabka.kernel.restore;

import java.io.Serial;

/**
 * A segment whose size disagrees with what declares it: the stream ends inside a batch, or before the size the
 * archive declares, or holds more bytes than that size.
 */
public final class TruncatedSegmentException extends RestoreIntegrityException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final long declared;
    private final long available;

    /**
     * A size mismatch found while reading the batch at {@code position}.
     *
     * @param declared  the size in bytes the segment should have: the archive's declared size when the stream
     *                  disagrees with it, otherwise the end of the batch at {@code position} as its length field
     *                  declares (or the end of its header when the length was not read)
     * @param available the bytes the stream held
     */
    public TruncatedSegmentException(String key, long position, long declared, long available) {
        super(key, position, describe(declared, available));
        this.declared = declared;
        this.available = available;
    }

    private static String describe(long declared, long available) {
        return available < declared
                ? "segment is truncated: the stream ends after " + available + " bytes of " + declared
                : "segment is longer than declared: the stream holds " + available + " bytes, " + declared
                        + " declared";
    }

    /** The size in bytes the segment should have. */
    public long declared() {
        return declared;
    }

    /** The bytes the stream held. */
    public long available() {
        return available;
    }
}
