package io.krabka.plugin.rsm.gcs;

import io.krabka.objectstore.ObjectStoreRemoteStorageManager;
import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.RemoteStorageManagerProvider;
import io.krabka.spi.plugin.SpiVersion;
import io.krabka.spi.storage.RemoteStorageManager;
import java.util.List;

/** Declares the {@code gcs} remote storage manager: Google Cloud Storage. */
public final class GcsRemoteStorageManagerProvider implements RemoteStorageManagerProvider {

    /** The provider, as the service loader creates it. */
    public GcsRemoteStorageManagerProvider() {}

    @Override
    public String name() {
        return "gcs";
    }

    @Override
    public String spiVersion() {
        return SpiVersion.CURRENT;
    }

    @Override
    public List<ConfigKey> configKeys() {
        return GcsStorageConfig.KEYS;
    }

    @Override
    public RemoteStorageManager create() {
        return new ObjectStoreRemoteStorageManager(GcsTier::open);
    }

    @Override
    public String description() {
        return "Remote tier on Google Cloud Storage: one object per segment file, resumable streaming uploads for "
                + "large files, ranged reads.";
    }
}
