package io.krabka.kernel.restore;

import java.io.Serial;
import java.util.Objects;

/**
 * A segment read from the archive whose bytes cannot be trusted: the restore stops and names the object and the
 * byte position (or, for an object that fails as a whole, the object). Checked, because every caller must decide what it leaves behind (the launcher maps the whole
 * family to one exit code); sealed, because the verify stage knows every way a segment can fail it.
 */
public abstract sealed class RestoreIntegrityException extends RestoreException
        permits ChecksumMismatchException,
                TruncatedSegmentException,
                CorruptBatchException,
                TornCopyException,
                AuthenticationException,
                MetadataDisagreementException {
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

    /** A failure of the object {@code key} as a whole (missing, the wrong size or digest), described by {@code detail}. */
    RestoreIntegrityException(String key, String detail) {
        super(Objects.requireNonNull(key, "key") + ": " + detail);
        this.key = key;
        this.position = -1;
    }

    /** The object key of the segment. */
    public String key() {
        return key;
    }

    /**
     * The byte position in the segment where the failing batch (or the missing bytes) starts; -1 when the object
     * fails as a whole.
     */
    public long position() {
        return position;
    }
}
