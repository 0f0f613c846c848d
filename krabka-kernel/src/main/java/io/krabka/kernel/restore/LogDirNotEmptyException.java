package io.krabka.kernel.restore;

import java.io.Serial;
import java.nio.file.Path;

/** The target log directory exists and holds something: a restore writes only into an empty or absent one. */
public final class LogDirNotEmptyException extends RestoreException {
    @Serial
    private static final long serialVersionUID = 1L;

    /** {@code logDir} holds {@code entry} (a file or directory name). */
    public LogDirNotEmptyException(Path logDir, String entry) {
        super("the log directory " + logDir + " is not empty (it holds " + entry
                + "): restore writes only into an empty or absent directory, and left it untouched");
    }

    /** {@code logDir} is there but is not a directory. */
    public LogDirNotEmptyException(Path logDir) {
        super(logDir
                + " is not a directory: restore writes only into an empty or absent directory, and left it untouched");
    }
}
