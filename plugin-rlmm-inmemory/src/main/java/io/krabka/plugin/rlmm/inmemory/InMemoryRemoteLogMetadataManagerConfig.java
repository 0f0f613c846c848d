package io.krabka.plugin.rlmm.inmemory;

import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.ConfigType;
import io.krabka.spi.plugin.PluginConfig;
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

    /** Every setting the manager takes. */
    static final List<ConfigKey> KEYS = List.of(
            ConfigKey.optional(SNAPSHOT_PATH, ConfigType.STRING, "",
                    "A JSON file holding a snapshot of the whole cache. When set, the file is loaded when the manager "
                            + "is configured, if it exists, and written when it is closed; its directory must exist. "
                            + "Empty keeps the metadata in memory only."));

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
        String text = PluginConfig.parse(KEYS, raw).getString(SNAPSHOT_PATH);
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
}
