package com.example.krabka.rsm.sample;

import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.ConfigType;
import io.krabka.spi.plugin.ConfigValidator;
import io.krabka.spi.plugin.PluginConfig;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The settings of the pack tier.
 *
 * @param dir the directory that holds the packs; absolute, an existing, writable directory
 */
record PackedStorageConfig(Path dir) {
    static final String DIR = "dir";

    /** The keys, as the provider declares them. */
    static final List<ConfigKey> KEYS = List.of(
            ConfigKey.required(DIR, ConfigType.STRING,
                            "An existing, writable directory; each segment becomes one file, "
                                    + "<topicId>-<partition>/<segmentId>.pack, under it.")
                    .withValidator(ConfigValidator.nonBlank()));

    /** Validates the parts. */
    PackedStorageConfig {
        Objects.requireNonNull(dir, "dir");
        if (!dir.isAbsolute()) {
            throw new IllegalArgumentException("dir must be absolute: " + dir);
        }
    }

    /**
     * Checks and parses settings, raw or already parsed by the kernel. A missing directory is an error rather than
     * created, so a typo or an unmounted volume is caught here instead of filling another disk.
     *
     * @throws ConfigException naming the key and the value for anything missing, unknown or invalid
     */
    static PackedStorageConfig parse(Map<String, ?> configs) {
        String text = PluginConfig.parse(KEYS, configs).getString(DIR);
        Path dir;
        try {
            dir = Path.of(text).toAbsolutePath().normalize();
        } catch (InvalidPathException e) {
            throw new ConfigException(DIR, text, "not a path: " + e.getMessage());
        }
        if (!Files.isDirectory(dir)) {
            throw new ConfigException(DIR, dir, Files.exists(dir) ? "not a directory" : "no such directory");
        }
        if (!Files.isWritable(dir)) {
            throw new ConfigException(DIR, dir, "not writable");
        }
        return new PackedStorageConfig(dir);
    }
}
