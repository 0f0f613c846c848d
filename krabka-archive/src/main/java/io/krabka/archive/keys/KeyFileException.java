package io.krabka.archive.keys;

import java.io.Serial;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A key file that cannot be used: unreadable, not in a form this reads, not an Ed25519 key, or a key that fails
 * validation. The message names the file, for a one-line error at the command line.
 */
public final class KeyFileException extends Exception {
    @Serial
    private static final long serialVersionUID = 1L;

    private final transient Path file;

    /** A key file refused for the reason given. */
    public KeyFileException(Path file, String reason) {
        this(file, reason, null);
    }

    /** A key file refused for the reason given, as another exception reported it. */
    public KeyFileException(Path file, String reason, Throwable cause) {
        super(Objects.requireNonNull(file, "file") + ": " + reason, cause);
        this.file = file;
    }

    /** The file refused. */
    public Path file() {
        return file;
    }
}
