package io.krabka.kernel.log.cleaner;

import io.krabka.kernel.log.UnifiedLog;
import java.io.Serial;

/**
 * An unexpected failure cleaning a log, Kafka's {@code LogCleaningException}: its partition is marked uncleanable
 * (and no longer cleaned until it moves or the broker restarts) and the thread goes on with other logs.
 */
final class LogCleaningException extends RuntimeException {

    @Serial
    private static final long serialVersionUID = 1L;

    private final transient UnifiedLog log;

    LogCleaningException(UnifiedLog log, String message, Throwable cause) {
        super(message, cause);
        this.log = log;
    }

    UnifiedLog log() {
        return log;
    }
}
