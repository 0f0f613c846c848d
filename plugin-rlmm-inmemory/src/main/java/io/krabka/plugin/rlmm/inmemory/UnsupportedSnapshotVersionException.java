package io.krabka.plugin.rlmm.inmemory;

import java.io.Serial;
import java.nio.file.Path;

/** A snapshot file in a format version newer than this plugin reads, written by a newer Krabka. */
public final class UnsupportedSnapshotVersionException extends InvalidSnapshotException {
    @Serial
    private static final long serialVersionUID = 1L;

    private final int version;

    UnsupportedSnapshotVersionException(Path file, int version, int supported) {
        super(
                file,
                "format version " + version + " is newer than version " + supported
                        + ", the newest this plugin reads; it was written by a newer Krabka");
        this.version = version;
    }

    /** The format version the file declares. */
    public int version() {
        return version;
    }
}
