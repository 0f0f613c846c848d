package io.krabka.plugin.rsm.s3;

import io.krabka.objectstore.ObjectStoreRemoteStorageManager;
import io.krabka.spi.plugin.ConfigException;
import java.util.Map;

/** Opens the S3 tier a configuration names: the bucket as an {@link S3ObjectStore}, and the key layout. */
final class S3Tier {
    private S3Tier() {}

    /**
     * The tier of a configuration, not yet contacted.
     *
     * @throws ConfigException for an invalid setting, or a region the SDK cannot find
     */
    static ObjectStoreRemoteStorageManager.Tier open(Map<String, ?> configs) {
        S3StorageConfig config = S3StorageConfig.parse(configs);
        return new ObjectStoreRemoteStorageManager.Tier(S3ObjectStore.open(config.store()), config.keys());
    }
}
