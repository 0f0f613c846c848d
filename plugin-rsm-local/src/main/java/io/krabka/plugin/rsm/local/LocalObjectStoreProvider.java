package io.krabka.plugin.rsm.local;

import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.ObjectStoreProvider;
import io.krabka.spi.plugin.SpiVersion;
import java.util.List;

/**
 * Declares the {@code local} object store: a local directory, its objects the files under
 * {@code <dir>/kafka-tiered-storage/}. It enforces no retention, so a write-once archive accepts it only when told to.
 */
public final class LocalObjectStoreProvider implements ObjectStoreProvider {

    /** The provider, as the service loader creates it. */
    public LocalObjectStoreProvider() {}

    @Override
    public String name() {
        return "local";
    }

    @Override
    public String spiVersion() {
        return SpiVersion.CURRENT;
    }

    @Override
    public List<ConfigKey> configKeys() {
        return LocalStorageConfig.STORE_KEYS;
    }

    @Override
    public ObjectStore create() {
        return new LocalObjectStore();
    }

    @Override
    public String description() {
        return "Objects as files under a local directory's kafka-tiered-storage/, written whole by rename or "
                + "create-only link; no versions, no retention.";
    }
}
