package io.krabka.plugin.rlmm.inmemory;

import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.ConfigType;
import io.krabka.spi.plugin.OfferedKeys;
import io.krabka.spi.plugin.PluginConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The settings of the in-memory manager, given under {@code rlmm.config.}.
 *
 * @param snapshotPath the snapshot file, if the cache is to outlive the process
 */
record InMemoryRemoteLogMetadataManagerConfig(Optional<Path> snapshotPath) {

    /** The key of the snapshot file setting. */
    static final String SNAPSHOT_PATH = "snapshot.path";
    /**
     * The key the broker offers its tiered-storage directory under, {@code <first log dir>-tiered}: beside the log
     * directory and not in it, where Kafka's LogManager would refuse {@code remote-log-metadata/}.
     */
    static final String TIERED_STORAGE_DIR = OfferedKeys.TIERED_STORAGE_DIR;
    /** Where the snapshot goes under the broker's tiered-storage directory, as the original Krabka names it. */
    static final String DEFAULT_SNAPSHOT = "remote-log-metadata/snapshot.json";

    /** Every setting the manager takes. */
    static final List<ConfigKey> KEYS = List.of(
            ConfigKey.optional(
                    SNAPSHOT_PATH,
                    ConfigType.STRING,
                    "",
                    "A JSON file holding a snapshot of the whole cache. When set, the file is loaded when the manager "
                            + "is configured, if it exists, and written when it is closed; its directory must exist. "
                            + "Empty: tiered.storage.dir's remote-log-metadata/snapshot.json when a broker gives "
                            + "tiered.storage.dir, else the metadata stays in memory only."),
            ConfigKey.optional(
                    TIERED_STORAGE_DIR,
                    ConfigType.STRING,
                    "",
                    "Set by the broker to <first log dir>-tiered, where the snapshot goes by default."));

    /** Validates the parts. */
    InMemoryRemoteLogMetadataManagerConfig {
        Objects.requireNonNull(snapshotPath, "snapshotPath");
    }

    /**
     * Checks and parses raw settings.
     *
     * @throws ConfigException for an unknown key, a value of the wrong type, or a snapshot path whose directory does
     *                         not exist or which names a directory
     */
    static InMemoryRemoteLogMetadataManagerConfig parse(Map<String, ?> raw) {
        PluginConfig config = PluginConfig.parse(KEYS, raw);
        String text = config.getString(SNAPSHOT_PATH);
        if (text.isEmpty() && !config.getString(TIERED_STORAGE_DIR).isEmpty()) {
            text = defaultSnapshot(config.getString(TIERED_STORAGE_DIR));
        }
        if (text.isEmpty()) {
            return new InMemoryRemoteLogMetadataManagerConfig(Optional.empty());
        }
        Path path;
        try {
            path = Path.of(text).toAbsolutePath();
        } catch (InvalidPathException e) {
            throw new ConfigException(SNAPSHOT_PATH, text, "not a file path: " + e.getMessage());
        }
        if (Files.isDirectory(path)) {
            throw new ConfigException(SNAPSHOT_PATH, text, "names a directory, not a file");
        }
        if (path.getParent() == null || !Files.isDirectory(path.getParent())) {
            throw new ConfigException(SNAPSHOT_PATH, text, "its directory " + path.getParent() + " does not exist");
        }
        return new InMemoryRemoteLogMetadataManagerConfig(Optional.of(path));
    }

    private static String defaultSnapshot(String tieredStorageDir) {
        Path snapshot = Path.of(tieredStorageDir).resolve(DEFAULT_SNAPSHOT);
        try {
            Files.createDirectories(snapshot.getParent());
        } catch (IOException e) {
            throw new ConfigException(
                    TIERED_STORAGE_DIR, tieredStorageDir, "cannot create " + snapshot.getParent() + ": " + e);
        }
        return snapshot.toString();
    }
}
