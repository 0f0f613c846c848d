package io.krabka.kernel.format;

import java.io.Serial;
import java.util.Objects;

/** Why {@code krabka format} did not format: a one-line message and the kind of failure. */
public final class FormatException extends Exception {
    @Serial
    private static final long serialVersionUID = 1L;

    /** The kinds of failure, each with its own exit code in the launcher. */
    public enum Kind {
        /** A log directory already has a {@code meta.properties}, and formatted directories are not to be skipped. */
        ALREADY_FORMATTED,
        /**
         * A log directory that must not be formatted over: it holds foreign files, is not a directory, has an
         * unreadable {@code meta.properties}, or belongs to another cluster or node.
         */
        CONFLICT,
        /** The initial controllers do not fit together or with this node. */
        INVALID_VOTERS,
        /** The release version or a feature level is unknown, unstable, or conflicts with another. */
        INVALID_FEATURES,
        /** An {@code --add-scram} or {@code --add-acl} value is malformed or not allowed. */
        INVALID_BOOTSTRAP_RECORD,
        /** Reading or writing a log directory failed. */
        IO_ERROR
    }

    private final Kind kind;

    /** A failure of {@code kind}. */
    public FormatException(Kind kind, String message) {
        super(message);
        this.kind = Objects.requireNonNull(kind, "kind");
    }

    /** A failure of {@code kind} caused by {@code cause}. */
    public FormatException(Kind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = Objects.requireNonNull(kind, "kind");
    }

    /** The kind of failure. */
    public Kind kind() {
        return kind;
    }
}
