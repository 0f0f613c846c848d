package io.krabka.launcher;

import java.io.Serial;

/** A failure a command reports as one line on standard error, with its exit code. */
final class CommandException extends Exception {
    @Serial
    private static final long serialVersionUID = 1L;

    private final int exitCode;

    CommandException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    CommandException(int exitCode, String message, Throwable cause) {
        super(message, cause);
        this.exitCode = exitCode;
    }

    /** A command stopped by {@code failure}, with its message and the exit code {@link ExitCode#of} gives it. */
    static CommandException of(Exception failure) {
        return new CommandException(ExitCode.of(failure), failure.getMessage(), failure);
    }

    /** Wrong flags or arguments: {@link ExitCode#USAGE}. */
    static CommandException usage(String message) {
        return new CommandException(ExitCode.USAGE, message);
    }

    int exitCode() {
        return exitCode;
    }
}
