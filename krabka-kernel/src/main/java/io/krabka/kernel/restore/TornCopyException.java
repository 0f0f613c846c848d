package io.krabka.kernel.restore;

import java.io.Serial;

/**
 * A segment copy that is not whole: an artifact Kafka's remote tier always writes is missing, or an object is not
 * the size the archive lists.
 */
public final class TornCopyException extends RestoreIntegrityException {
    @Serial
    private static final long serialVersionUID = 1L;

    /** The object {@code key} of a copy is wrong in the way {@code detail} says. */
    public TornCopyException(String key, String detail) {
        super(key, detail);
    }
}
