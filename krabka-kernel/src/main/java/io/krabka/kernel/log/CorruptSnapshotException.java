package io.krabka.kernel.log;

import java.io.Serial;
import java.nio.file.Path;

/**
 * A producer state snapshot file that Kafka could not have written: an unknown version, a CRC that does not match,
 * a size that does not match its entry count. Kafka's name; unchecked, as there. The message names the file.
 */
public final class CorruptSnapshotException extends RuntimeException {

    @Serial
    private static final long serialVersionUID = 1L;

    private final transient Path file;

    /**
     * A problem found in {@code file}.
     *
     * @param file   the snapshot file
     * @param detail what is wrong with it
     */
    public CorruptSnapshotException(Path file, String detail) {
        super("Corrupt producer state snapshot " + file + ": " + detail);
        this.file = file;
    }

    /** The snapshot file. */
    public Path file() {
        return file;
    }
}
