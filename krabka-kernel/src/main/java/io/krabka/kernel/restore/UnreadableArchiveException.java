package io.krabka.kernel.restore;

import java.io.Serial;

/** The archive cannot be read (a missing bucket or directory, refused credentials, a failed listing) or is empty. */
public final class UnreadableArchiveException extends RestoreException {
    @Serial
    private static final long serialVersionUID = 1L;

    /** A failure described by a one-line {@code message}. */
    public UnreadableArchiveException(String message) {
        super(message);
    }

    /** A failure described by a one-line {@code message}, caused by {@code cause}. */
    public UnreadableArchiveException(String message, Throwable cause) {
        super(message, cause);
    }
}
