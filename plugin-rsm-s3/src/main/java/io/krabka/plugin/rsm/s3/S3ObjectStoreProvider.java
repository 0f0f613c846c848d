package io.krabka.plugin.rsm.s3;

import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.ObjectStoreProvider;
import io.krabka.spi.plugin.SpiVersion;
import java.util.List;

/**
 * Declares the {@code s3} object store: one bucket of Amazon S3 or an S3-compatible service, for the write-once
 * archive, {@code krabka verify} and {@code krabka restore}. It takes the remote tier's settings but its
 * {@code prefix}, and {@code allow.http}.
 */
public final class S3ObjectStoreProvider implements ObjectStoreProvider {

    /** The provider, as the service loader creates it. */
    public S3ObjectStoreProvider() {}

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
        return S3StoreConfig.KEYS;
    }

    @Override
    public ObjectStore create() {
        return new S3ObjectStore();
    }

    @Override
    public String description() {
        return "Objects in an Amazon S3 or S3-compatible bucket: conditional creates (If-None-Match), multipart "
                + "uploads, versioned and ranged reads, the bucket's versioning and Object Lock retention.";
    }
}
