package io.krabka.plugin.rsm.gcs;

import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.ObjectStoreProvider;
import io.krabka.spi.plugin.SpiVersion;
import java.util.List;

/**
 * Declares the {@code gcs} object store: one Google Cloud Storage bucket, with generations as versions,
 * {@code ifGenerationMatch=0} creates, and the bucket's retention policy (Bucket Lock) as its protection.
 */
public final class GcsObjectStoreProvider implements ObjectStoreProvider {

    /** The provider, as the service loader creates it. */
    public GcsObjectStoreProvider() {}

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
        return GcsStoreConfig.KEYS;
    }

    @Override
    public ObjectStore create() {
        return new GcsObjectStore();
    }

    @Override
    public String description() {
        return "A Google Cloud Storage bucket: create-only writes (ifGenerationMatch=0) on single and resumable "
                + "uploads, reads by generation, the bucket's retention policy and lock as its protection.";
    }
}
