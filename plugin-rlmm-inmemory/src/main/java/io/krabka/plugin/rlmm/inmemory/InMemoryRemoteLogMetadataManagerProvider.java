package io.krabka.plugin.rlmm.inmemory;

import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.RemoteLogMetadataManagerProvider;
import io.krabka.spi.plugin.SpiVersion;
import io.krabka.spi.storage.RemoteLogMetadataManager;
import java.util.List;

/** Declares the {@code inmemory} remote log metadata manager: {@link InMemoryRemoteLogMetadataManager}. */
public final class InMemoryRemoteLogMetadataManagerProvider implements RemoteLogMetadataManagerProvider {

    /** The provider the kernel finds through the module's {@code provides} clause. */
    public InMemoryRemoteLogMetadataManagerProvider() {}

    @Override
    public String name() {
        return "inmemory";
    }

    @Override
    public String spiVersion() {
        return SpiVersion.CURRENT;
    }

    @Override
    public List<ConfigKey> configKeys() {
        return InMemoryRemoteLogMetadataManagerConfig.KEYS;
    }

    @Override
    public RemoteLogMetadataManager create() {
        return new InMemoryRemoteLogMetadataManager();
    }

    @Override
    public String description() {
        return "Remote log segment metadata in memory, answering as Kafka's cache does, with an optional JSON snapshot";
    }
}
