package io.krabka.plugin.rsm.gcs;

import io.krabka.objectstore.SegmentObjectKeys;
import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.ConfigType;
import io.krabka.spi.plugin.PluginConfig;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The settings of the Google Cloud Storage remote tier, relative to the broker's {@code rsm.config.} prefix: the
 * store's ({@link GcsStoreConfig}) and where segments go in the bucket.
 *
 * @param store the bucket and its client's settings
 * @param keys  where segments go in the bucket
 */
record GcsStorageConfig(GcsStoreConfig store, SegmentObjectKeys keys) {

    static final String PREFIX = "prefix";

    /** The keys, as the provider declares them: the store's, with {@code prefix} after the bucket. */
    static final List<ConfigKey> KEYS = GcsStoreConfig.concat(
            List.of(
                    GcsStoreConfig.BUCKET_KEY,
                    ConfigKey.optional(
                            PREFIX,
                            ConfigType.STRING,
                            "",
                            "The object name prefix of every object, e.g. \"kafka/tier\"; empty for the bucket's root. Objects "
                                    + "are <prefix>/<topic>-<partition>-<topicId>/<offset:020d>-<segmentId>.<suffix>. Changing "
                                    + "it hides the segments stored under the old prefix.")),
            GcsStoreConfig.CLIENT_KEYS);

    /** Validates the parts. */
    GcsStorageConfig {
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(keys, "keys");
    }

    /**
     * Checks and parses settings, raw or already parsed.
     *
     * @throws ConfigException naming the key and the value for anything missing, unknown or invalid
     */
    static GcsStorageConfig parse(Map<String, ?> configs) {
        PluginConfig config = PluginConfig.parse(KEYS, configs);
        SegmentObjectKeys keys;
        try {
            keys = SegmentObjectKeys.underPrefix(config.getString(PREFIX));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(PREFIX, config.getString(PREFIX), e.getMessage());
        }
        return new GcsStorageConfig(GcsStoreConfig.of(config), keys);
    }
}
