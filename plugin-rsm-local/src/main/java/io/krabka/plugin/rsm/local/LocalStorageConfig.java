package io.krabka.plugin.rsm.local;

import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.ConfigType;
import io.krabka.spi.plugin.OfferedKeys;
import io.krabka.spi.plugin.PluginConfig;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * The settings of the local remote tier. {@code dir}, {@code delete.enable} and {@code delete.on.close} are the keys
 * of Kafka's LocalTieredStorage, with its meaning; {@code tiered.storage.dir} is what the broker offers, {@code <first log dir>-tiered}, so that a
 * broker on defaults keeps its tier beside its data, though never in a log directory (Kafka refuses to start on one
 * holding {@code kafka-tiered-storage/}).
 *
 * @param dir           the directory that holds {@code kafka-tiered-storage/}; absolute, an existing directory
 * @param deleteEnabled whether deletes delete; false makes them no-ops, as in Kafka
 * @param fsync         whether files and directories are forced to disk before a copy or delete returns
 * @param deleteOnClose whether closing the manager deletes the whole tier, as Kafka's test harness uses it
 */
record LocalStorageConfig(Path dir, boolean deleteEnabled, boolean fsync, boolean deleteOnClose) {
    static final String DIR = "dir";
    static final String DELETE_ENABLE = "delete.enable";
    static final String FSYNC_ENABLE = "fsync.enable";
    static final String DELETE_ON_CLOSE = "delete.on.close";
    static final String TIERED_STORAGE_DIR = OfferedKeys.TIERED_STORAGE_DIR;
    static final String MISSING_DIR =
            "missing required setting dir: the directory of the tier (a broker gives " + "tiered.storage.dir instead)";
    /** The file that makes a directory a Kafka log directory. */
    private static final String META_PROPERTIES = "meta.properties";

    /** The keys of the {@code local} object store. */
    static final List<ConfigKey> STORE_KEYS = List.of(
            ConfigKey.optional(
                    DIR,
                    ConfigType.STRING,
                    "",
                    "An existing, writable directory; segments go to kafka-tiered-storage/ under it, laid out as "
                            + "Kafka's LocalTieredStorage; never a log directory. Empty: tiered.storage.dir."),
            ConfigKey.optional(
                    TIERED_STORAGE_DIR,
                    ConfigType.STRING,
                    "",
                    "Set by the broker to <first log dir>-tiered; the tier's directory when dir is empty."),
            ConfigKey.optional(
                    DELETE_ENABLE,
                    ConfigType.BOOLEAN,
                    true,
                    "Whether deleting a segment removes its files; false makes deletes no-ops, as in Kafka's "
                            + "LocalTieredStorage."),
            ConfigKey.optional(
                    FSYNC_ENABLE,
                    ConfigType.BOOLEAN,
                    true,
                    "Whether every file and directory change is forced to disk before a copy or delete returns. "
                            + "false is faster but may lose a copied segment in a power failure."));

    private static final ConfigKey DELETE_ON_CLOSE_KEY = ConfigKey.optional(
            DELETE_ON_CLOSE,
            ConfigType.BOOLEAN,
            false,
            "Whether closing the manager (the broker's shutdown) deletes kafka-tiered-storage/ and every segment in "
                    + "it, as Kafka's LocalTieredStorage does for its tests. Never in production.");

    /** The keys of the {@code local} remote storage manager: the store's and Kafka's test-only delete.on.close. */
    static final List<ConfigKey> KEYS =
            Stream.concat(STORE_KEYS.stream(), Stream.of(DELETE_ON_CLOSE_KEY)).toList();

    /** Validates the parts. */
    LocalStorageConfig {
        Objects.requireNonNull(dir, "dir");
        if (!dir.isAbsolute()) {
            throw new IllegalArgumentException("dir must be absolute: " + dir);
        }
    }

    /** As {@link #parse(List, Map)} with the remote storage manager's keys. */
    static LocalStorageConfig parse(Map<String, ?> configs) {
        return parse(KEYS, configs);
    }

    /**
     * Checks and parses settings, raw or already parsed, against {@code keys}, and checks that {@code dir} is an existing directory and
     * not a log directory.
     * A directory that is missing is an error rather than created, so that a typo or an unmounted volume is
     * caught here instead of filling another disk.
     *
     * @throws ConfigException naming the key and the value for anything missing, unknown or invalid
     */
    static LocalStorageConfig parse(List<ConfigKey> keys, Map<String, ?> configs) {
        PluginConfig config = PluginConfig.parse(keys, configs);
        String text = config.getString(DIR).isBlank() ? config.getString(TIERED_STORAGE_DIR) : config.getString(DIR);
        if (text.isBlank()) {
            throw new ConfigException(MISSING_DIR);
        }
        Path dir;
        try {
            dir = Path.of(text).toAbsolutePath().normalize();
        } catch (InvalidPathException e) {
            throw new ConfigException(DIR, text, "not a path: " + e.getMessage());
        }
        if (!Files.exists(dir)) {
            throw new ConfigException(DIR, dir, "no such directory");
        }
        if (!Files.isDirectory(dir)) {
            throw new ConfigException(DIR, dir, "not a directory");
        }
        if (!Files.isWritable(dir)) {
            throw new ConfigException(DIR, dir, "not writable");
        }
        if (Files.exists(dir.resolve(META_PROPERTIES))) {
            throw new ConfigException(
                    DIR,
                    dir,
                    "a Kafka log directory (it holds meta.properties), where Kafka's "
                            + "LogManager refuses kafka-tiered-storage/; use a directory of its own");
        }
        return new LocalStorageConfig(
                dir,
                config.getBoolean(DELETE_ENABLE),
                config.getBoolean(FSYNC_ENABLE),
                keys.contains(DELETE_ON_CLOSE_KEY) && config.getBoolean(DELETE_ON_CLOSE));
    }
}
