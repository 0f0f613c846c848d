package io.krabka.kernel.restore;

import java.io.Serial;
import java.util.Objects;

/**
 * A segment read from the archive whose bytes cannot be trusted: the restore stops and names the object and the
 * byte position. Checked, because every caller must decide what it leaves behind (the launcher maps the whole
 * family to one exit code); sealed, because the verify stage knows every way a segment can fail it.
 */
public abstract sealed class RestoreIntegrityException extends Exception
        permits ChecksumMismatchException, TruncatedSegmentException, CorruptBatchException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final String key;
    private final long position;

    /** A failure in the object {@code key} at byte {@code position}, described by {@code detail}. */
    RestoreIntegrityException(String key, long position, String detail) {
        super(Objects.requireNonNull(key, "key") + " at byte " + position + ": " + detail);
        this.key = key;
        this.position = position;
    }

    /** The object key of the segment. */
    public String key() {
        return key;
    }

    /** The byte position in the segment where the failing batch (or the missing bytes) starts. */
    public long position() {
        return position;
    }
}
