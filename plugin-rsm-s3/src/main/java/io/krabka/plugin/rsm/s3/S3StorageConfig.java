package io.krabka.plugin.rsm.s3;

import io.krabka.objectstore.SegmentObjectKeys;
import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.ConfigType;
import io.krabka.spi.plugin.ConfigValidator;
import io.krabka.spi.plugin.PluginConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The settings of the S3 remote tier, relative to the broker's {@code rsm.config.} prefix: where segments go in the
 * bucket, and the bucket as an object store.
 *
 * @param keys  where segments go in the bucket
 * @param store the bucket and the client's settings
 */
record S3StorageConfig(SegmentObjectKeys keys, S3StoreConfig store) {

    static final String PREFIX = "prefix";

    /** The keys, as the provider declares them. */
    static final List<ConfigKey> KEYS = tierKeys();

    /** Validates the parts. */
    S3StorageConfig {
        Objects.requireNonNull(keys, "keys");
        Objects.requireNonNull(store, "store");
    }

    private static List<ConfigKey> tierKeys() {
        List<ConfigKey> keys = new ArrayList<>();
        keys.add(ConfigKey.required(
                        S3StoreConfig.BUCKET, ConfigType.STRING, "The bucket that holds the tier; it must exist.")
                .withValidator(ConfigValidator.nonBlank()));
        keys.add(ConfigKey.optional(
                PREFIX,
                ConfigType.STRING,
                "",
                "The key prefix of every object, e.g. \"kafka/tier\"; empty for the bucket's root. Objects are "
                        + "<prefix>/<topic>-<partition>-<topicId>/<offset:020d>-<segmentId>.<suffix>. Changing it "
                        + "hides the segments stored under the old prefix."));
        keys.addAll(S3StoreConfig.CLIENT_KEYS);
        return List.copyOf(keys);
    }

    /**
     * Checks and parses settings, raw or already parsed. The tier has always taken http endpoints, so it has no
     * {@code allow.http} key and accepts them.
     *
     * @throws ConfigException naming the key and the value for anything missing, unknown or invalid
     */
    static S3StorageConfig parse(Map<String, ?> configs) {
        PluginConfig config = PluginConfig.parse(KEYS, configs);
        SegmentObjectKeys keys;
        try {
            keys = SegmentObjectKeys.underPrefix(config.getString(PREFIX));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(PREFIX, config.getString(PREFIX), e.getMessage());
        }
        return new S3StorageConfig(keys, S3StoreConfig.of(config, true));
    }
}
