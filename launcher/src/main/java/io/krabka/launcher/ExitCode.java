package io.krabka.launcher;

/**
 * The exit codes of {@code krabka}, defined here and nowhere else. Commands that grade their outcome more
 * finely (restore, verify) add theirs here too, documented in docs/commands.md.
 */
final class ExitCode {
    /** Done. */
    static final int OK = 0;
    /** The command ran and failed. */
    static final int FAILURE = 1;
    /** Wrong flags or arguments: nothing was done. */
    static final int USAGE = 2;

    private ExitCode() {
    }
}
