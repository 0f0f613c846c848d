package io.krabka.kernel.log.checkpoint;

import java.io.IOException;
import java.io.Serial;

/**
 * A checkpoint or metadata file that Kafka could not have written: a bad version, count or entry line, a missing
 * or unreadable property. The message names the file (or what the bytes came from) and the line.
 */
public class MalformedFileException extends IOException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final String source;
    private final int line;

    /**
     * A problem on one line.
     *
     * @param source the file, or what the bytes came from
     * @param line   the line, from 1
     * @param detail what is wrong there
     */
    public MalformedFileException(String source, int line, String detail) {
        super("Malformed " + source + " at line " + line + ": " + detail);
        this.source = source;
        this.line = line;
    }

    /**
     * A problem with the file as a whole, not one line of it (a missing property, say).
     *
     * @param source the file, or what the bytes came from
     * @param detail what is wrong
     */
    public MalformedFileException(String source, String detail) {
        super("Malformed " + source + ": " + detail);
        this.source = source;
        this.line = 0;
    }

    /** The file, or what the bytes came from. */
    public String source() {
        return source;
    }

    /** The line of the problem, from 1; 0 when it is not on one line. */
    public int line() {
        return line;
    }
}
