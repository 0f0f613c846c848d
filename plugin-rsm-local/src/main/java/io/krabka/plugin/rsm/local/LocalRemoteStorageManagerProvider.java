package io.krabka.plugin.rsm.local;

import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.RemoteStorageManagerProvider;
import io.krabka.spi.plugin.SpiVersion;
import io.krabka.spi.storage.RemoteStorageManager;
import java.util.List;

/** Declares the {@code local} remote storage manager: a local directory laid out as Kafka's LocalTieredStorage. */
public final class LocalRemoteStorageManagerProvider implements RemoteStorageManagerProvider {

    /** The provider, as the service loader creates it. */
    public LocalRemoteStorageManagerProvider() {
    }

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
        return LocalStorageConfig.KEYS;
    }

    @Override
    public RemoteStorageManager create() {
        return new LocalRemoteStorageManager();
    }

    @Override
    public String description() {
        return "Remote tier on a local directory, laid out as Kafka's LocalTieredStorage; atomic, durable copies.";
    }
}
