package io.krabka.plugin.rsm.gcs;

import io.krabka.objectstore.ObjectStoreRemoteStorageManager;
import io.krabka.spi.plugin.ConfigException;
import java.util.Map;

/** Opens the GCS tier a configuration names: the store over its bucket and the key layout. */
final class GcsTier {

    private GcsTier() {}

    /**
     * The tier of a configuration, not yet contacted.
     *
     * @throws ConfigException for an invalid setting, or credentials the client cannot read
     */
    static ObjectStoreRemoteStorageManager.Tier open(Map<String, ?> configs) {
        GcsStorageConfig config = GcsStorageConfig.parse(configs);
        GcsObjectStore store = new GcsObjectStore();
        store.configure(config.store());
        return new ObjectStoreRemoteStorageManager.Tier(store, config.keys());
    }
}
