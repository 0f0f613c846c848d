package io.krabka.kernel.log;

import java.io.Serial;

/**
 * Index bytes that Kafka could not have written: a size that is not a whole number of entries, keys going
 * backwards, a negative offset or position, an unknown entry version. Kafka's name; unchecked, as there. The
 * message names the source (a file path, or what the bytes came from) and the byte position of the problem.
 */
public class CorruptIndexException extends RuntimeException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final String source;
    private final long bytePosition;

    /**
     * A problem found in {@code source} at {@code bytePosition}.
     *
     * @param source       the file or other origin of the index bytes
     * @param bytePosition where in the bytes the problem is
     * @param detail       what is wrong there
     */
    public CorruptIndexException(String source, long bytePosition, String detail) {
        super("Corrupt index " + source + " at byte " + bytePosition + ": " + detail);
        this.source = source;
        this.bytePosition = bytePosition;
    }

    /** The file or other origin of the index bytes. */
    public String source() {
        return source;
    }

    /** Where in the bytes the problem is. */
    public long bytePosition() {
        return bytePosition;
    }
}
