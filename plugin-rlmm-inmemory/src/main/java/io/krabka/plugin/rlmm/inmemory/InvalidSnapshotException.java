package io.krabka.plugin.rlmm.inmemory;

import java.io.IOException;
import java.io.Serial;
import java.nio.file.Path;

/**
 * A snapshot file that cannot be loaded: not JSON, not of the snapshot's shape, or describing a state the cache
 * could never be in. The message names the file and, where there is one, the offending field. Nothing is loaded
 * from such a file.
 */
public class InvalidSnapshotException extends IOException {
    @Serial
    private static final long serialVersionUID = 1L;

    // A String, not a Path, so that the exception stays serializable.
    private final String file;

    InvalidSnapshotException(Path file, String problem) {
        this(file, problem, null);
    }

    InvalidSnapshotException(Path file, String problem, Throwable cause) {
        super(file + ": not a valid remote log metadata snapshot: " + problem, cause);
        this.file = file.toString();
    }

    /** The snapshot file. */
    public Path file() {
        return Path.of(file);
    }
}
