package io.krabka.kernel.log;

import java.io.IOException;
import java.io.Serial;

/**
 * A write that failed part way and whose undo failed too: the file holds the torn bytes of the failed write (its
 * failure is the cause, the undo's is suppressed), so its state is not known and its log directory goes offline.
 */
public final class TornWriteException extends IOException {

    @Serial
    private static final long serialVersionUID = 1L;

    TornWriteException(String message, Throwable failure, Throwable undoFailure) {
        super(message, failure);
        addSuppressed(undoFailure);
    }
}
