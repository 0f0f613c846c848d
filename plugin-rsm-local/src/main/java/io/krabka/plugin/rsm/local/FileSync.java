package io.krabka.plugin.rsm.local;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Locale;

/**
 * Forces files and directory entries to disk, or does nothing when the operator chose speed over durability
 * ({@code fsync.enable=false}). A rename or unlink is durable only once its directory is forced.
 */
final class FileSync {
    /** Windows cannot open a directory as a channel; its file system orders metadata updates itself. */
    private static final boolean DIRECTORIES_SYNCABLE =
            !System.getProperty("os.name", "").toLowerCase(Locale.ROOT).startsWith("windows");

    private final boolean enabled;

    FileSync(boolean enabled) {
        this.enabled = enabled;
    }

    /** Forces a written file's content and metadata. */
    void file(FileChannel channel) throws IOException {
        if (enabled) {
            channel.force(true);
        }
    }

    /** Forces the entries of a directory: the files created, renamed or deleted in it. */
    void directory(Path directory) throws IOException {
        if (enabled && DIRECTORIES_SYNCABLE) {
            try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
                channel.force(true);
            }
        }
    }
}
