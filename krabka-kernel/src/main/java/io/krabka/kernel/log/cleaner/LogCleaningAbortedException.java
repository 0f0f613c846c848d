package io.krabka.kernel.log.cleaner;

import java.io.Serial;

/** A cleaning stopped because it was asked to (the partition is deleted or paused), Kafka's exception. */
final class LogCleaningAbortedException extends RuntimeException {

    @Serial
    private static final long serialVersionUID = 1L;

    LogCleaningAbortedException() {
        super("the cleaning was aborted", null, false, false);
    }
}
