package com.example.krabka.rsm.sample;

import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.RemoteStorageManagerProvider;
import io.krabka.spi.plugin.SpiVersion;
import io.krabka.spi.storage.RemoteStorageManager;
import java.util.List;

/** Declares the {@code sample} remote storage manager: one pack file per segment in a directory. */
public final class PackedRemoteStorageManagerProvider implements RemoteStorageManagerProvider {

    /** The provider, as the service loader creates it. */
    public PackedRemoteStorageManagerProvider() {
    }

    @Override
    public String name() {
        return "sample";
    }

    @Override
    public String spiVersion() {
        return SpiVersion.CURRENT;
    }

    @Override
    public List<ConfigKey> configKeys() {
        return PackedStorageConfig.KEYS;
    }

    @Override
    public RemoteStorageManager create() {
        return new PackedRemoteStorageManager();
    }

    @Override
    public String description() {
        return "Remote tier in a directory, each segment and its indexes in one pack file written atomically.";
    }
}
