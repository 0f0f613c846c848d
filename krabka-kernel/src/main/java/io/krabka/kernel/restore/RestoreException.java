package io.krabka.kernel.restore;

import io.krabka.kernel.restore.bound.InvalidRestoreArgumentException;
import java.io.Serial;

/**
 * Why a restore did not finish: the closed set of failures the restore library reports, each with a one-line
 * message. The launcher maps each kind to its exit code in one place; the library never picks a code.
 */
public abstract sealed class RestoreException extends Exception
        permits InvalidRestoreArgumentException,
                LogDirNotEmptyException,
                UnreadableArchiveException,
                RestoreIntegrityException,
                MaterializeException {
    @Serial
    private static final long serialVersionUID = 1L;

    /** A failure described by a one-line {@code message}. */
    protected RestoreException(String message) {
        super(message);
    }

    /** A failure described by a one-line {@code message}, caused by {@code cause}. */
    protected RestoreException(String message, Throwable cause) {
        super(message, cause);
    }
}
