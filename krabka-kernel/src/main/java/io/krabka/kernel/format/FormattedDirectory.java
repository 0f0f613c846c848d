package io.krabka.kernel.format;

import io.krabka.spi.common.Uuid;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A log directory that was formatted.
 *
 * @param path        the directory
 * @param type        what it is for
 * @param directoryId the id written to its {@code meta.properties}
 */
public record FormattedDirectory(Path path, DirectoryType type, Uuid directoryId) {

    /** Validates the values. */
    public FormattedDirectory {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(directoryId, "directoryId");
    }
}
