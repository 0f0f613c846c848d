package io.krabka.archive.verify;

import java.io.Serial;

/**
 * The archive could not be looked at: the store refused or failed a listing or a read (a missing bucket or
 * directory, refused credentials, a network failure). Distinct from a tampered archive, which is a report that is
 * not ok: "I could not look" and "I looked and it is broken" never share an exit code.
 */
public final class ArchiveUnreadableException extends Exception {
    @Serial
    private static final long serialVersionUID = 1L;

    /** An archive that could not be read, as the store's exception says. */
    public ArchiveUnreadableException(String message, Throwable cause) {
        super(message, cause);
    }
}
