package io.krabka.kernel.restore;

import java.io.Serial;

/** Writing the target failed; what the restore had written is removed again. */
public final class MaterializeException extends RestoreException {
    @Serial
    private static final long serialVersionUID = 1L;

    /** A failure described by a one-line {@code message}, caused by {@code cause}. */
    public MaterializeException(String message, Throwable cause) {
        super(message, cause);
    }
}
