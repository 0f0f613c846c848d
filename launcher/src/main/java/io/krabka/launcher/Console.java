package io.krabka.launcher;

import java.io.PrintStream;

/**
 * Where a command writes: results to {@code out}, diagnostics to {@code err}.
 *
 * @param out standard output
 * @param err standard error
 */
record Console(PrintStream out, PrintStream err) {

    static Console system() {
        return new Console(System.out, System.err);
    }
}
