package io.krabka.kernel.log;

import java.io.Serial;

/**
 * Log directories whose {@code meta.properties} are missing (the directory was never formatted) or disagree (another
 * cluster's or node's directory, or two directories with one id). Kafka refuses to start on either.
 */
public final class MetaPropertiesException extends RuntimeException {

    @Serial
    private static final long serialVersionUID = 1L;

    /** An error with its message. */
    public MetaPropertiesException(String message) {
        super(message);
    }
}
