package io.krabka.plugin.rsm.s3;

import io.krabka.objectstore.ObjectStoreRemoteStorageManager;
import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.RemoteStorageManagerProvider;
import io.krabka.spi.plugin.SpiVersion;
import io.krabka.spi.storage.RemoteStorageManager;
import java.util.List;

/** Declares the {@code s3} remote storage manager: Amazon S3 or any S3-compatible service. */
public final class S3RemoteStorageManagerProvider implements RemoteStorageManagerProvider {

    /** The provider, as the service loader creates it. */
    public S3RemoteStorageManagerProvider() {}

    @Override
    public String name() {
        return "s3";
    }

    @Override
    public String spiVersion() {
        return SpiVersion.CURRENT;
    }

    @Override
    public List<ConfigKey> configKeys() {
        return S3StorageConfig.KEYS;
    }

    @Override
    public RemoteStorageManager create() {
        return new ObjectStoreRemoteStorageManager(S3Tier::open);
    }

    @Override
    public String description() {
        return "Remote tier on Amazon S3 or an S3-compatible service: one object per segment file, multipart "
                + "uploads for large segments, ranged reads.";
    }
}
