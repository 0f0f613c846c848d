package io.krabka.kernel.format;

import io.krabka.kernel.log.checkpoint.AtomicFileWriter;
import io.krabka.kernel.log.checkpoint.MalformedFileException;
import io.krabka.kernel.log.checkpoint.MetaProperties;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Optional;

/**
 * Reads what a log directory holds before formatting. A directory is formatted when it has a
 * {@code meta.properties}; one without may hold nothing but {@code lost+found} (a fresh file system's root) and
 * what an interrupted format leaves: {@code meta.properties.tmp} and, in the metadata log directory, the
 * bootstrap snapshot and its partial files. Anything else is foreign, and the directory is not formatted over it.
 */
final class LogDirectories {
    private static final String LOST_AND_FOUND = "lost+found";
    private static final String META_PROPERTIES_TEMP =
            MetaProperties.META_PROPERTIES_FILE_NAME + AtomicFileWriter.TEMP_FILE_SUFFIX;
    private static final String PARTIAL_SNAPSHOT_PREFIX =
            BootstrapSnapshot.FILE_NAME.substring(0, BootstrapSnapshot.FILE_NAME.indexOf('.')) + "-";

    private LogDirectories() {}

    /**
     * The directory's {@code meta.properties}, or empty when it is not formatted (or does not exist yet).
     *
     * @param metadataLogDir whether it is the metadata log directory, which may hold snapshot leftovers
     * @throws FormatException {@link FormatException.Kind#CONFLICT} for a file, foreign files or a malformed
     *                         {@code meta.properties}; {@link FormatException.Kind#IO_ERROR} if it cannot be read
     */
    static Optional<MetaProperties> inspect(Path dir, boolean metadataLogDir) throws FormatException {
        if (!Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
            return Optional.empty();
        }
        if (!Files.isDirectory(dir)) {
            throw new FormatException(FormatException.Kind.CONFLICT, "Log directory " + dir + " is not a directory");
        }
        Path metaProperties = dir.resolve(MetaProperties.META_PROPERTIES_FILE_NAME);
        try {
            if (Files.exists(metaProperties)) {
                return Optional.of(MetaProperties.read(metaProperties));
            }
            try (DirectoryStream<Path> entries = Files.newDirectoryStream(dir)) {
                for (Path entry : entries) {
                    if (!isLeftover(entry, metadataLogDir)) {
                        throw new FormatException(
                                FormatException.Kind.CONFLICT,
                                "Log directory " + dir
                                        + " has no meta.properties but holds " + entry.getFileName()
                                        + ": only an empty directory is formatted");
                    }
                }
            }
            return Optional.empty();
        } catch (MalformedFileException e) {
            throw new FormatException(FormatException.Kind.CONFLICT, e.getMessage(), e);
        } catch (IOException e) {
            throw new FormatException(
                    FormatException.Kind.IO_ERROR, "Reading log directory " + dir + " failed: " + e, e);
        }
    }

    private static boolean isLeftover(Path entry, boolean metadataLogDir) throws IOException {
        String name = entry.getFileName().toString();
        if (name.equals(LOST_AND_FOUND)) {
            return Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS);
        }
        if (name.equals(META_PROPERTIES_TEMP)) {
            return Files.isRegularFile(entry, LinkOption.NOFOLLOW_LINKS);
        }
        if (!metadataLogDir
                || !name.equals(BootstrapSnapshot.DIRECTORY)
                || !Files.isDirectory(entry, LinkOption.NOFOLLOW_LINKS)) {
            return false;
        }
        try (DirectoryStream<Path> snapshots = Files.newDirectoryStream(entry)) {
            for (Path snapshot : snapshots) {
                String file = snapshot.getFileName().toString();
                boolean ours = file.equals(BootstrapSnapshot.FILE_NAME)
                        || (file.startsWith(PARTIAL_SNAPSHOT_PREFIX)
                                && file.endsWith(BootstrapSnapshot.PARTIAL_SUFFIX));
                if (!ours || !Files.isRegularFile(snapshot, LinkOption.NOFOLLOW_LINKS)) {
                    return false;
                }
            }
        }
        return true;
    }
}
