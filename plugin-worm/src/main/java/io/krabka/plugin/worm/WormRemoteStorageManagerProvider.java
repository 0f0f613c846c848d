package io.krabka.plugin.worm;

import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.ObjectStoreRemoteStorageManagerProvider;
import io.krabka.spi.plugin.SpiVersion;
import io.krabka.spi.storage.RemoteStorageContext;
import io.krabka.spi.storage.RemoteStorageManager;
import java.util.List;

/** Declares the {@code worm} remote storage manager: a write-once archive over the object store its settings name. */
public final class WormRemoteStorageManagerProvider implements ObjectStoreRemoteStorageManagerProvider {

    /** The provider, as the service loader creates it. */
    public WormRemoteStorageManagerProvider() {}

    @Override
    public String name() {
        return "worm";
    }

    @Override
    public String spiVersion() {
        return SpiVersion.CURRENT;
    }

    @Override
    public List<ConfigKey> configKeys() {
        return WormConfig.KEYS;
    }

    @Override
    public RemoteStorageManager create(RemoteStorageContext context) {
        return new WormRemoteStorageManager(context);
    }

    @Override
    public String description() {
        return "Write-once archive over an object store: create-only writes, verified bucket retention, a signed "
                + "hash-chained manifest per segment, no deletes.";
    }
}
