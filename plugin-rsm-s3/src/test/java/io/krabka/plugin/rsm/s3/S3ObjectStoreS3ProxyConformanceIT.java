package io.krabka.plugin.rsm.s3;

import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.testkit.ObjectStoreCapability;
import io.krabka.testkit.ObjectStoreConformance;
import io.krabka.testkit.ObjectStores;
import io.krabka.testservers.S3ProxyBuckets;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The object-store kit against the {@code s3} store on S3Proxy, in a versioned bucket: it refuses creates of an
 * existing key (PutObject and CompleteMultipartUpload), keeps versions and deletes; it has no Object Lock.
 */
class S3ObjectStoreS3ProxyConformanceIT extends ObjectStoreConformance {
    @RegisterExtension
    static final S3ProxyBuckets PROXY = S3ProxyBuckets.versioned();

    @Override
    protected ObjectStore createObjectStore(Path scratch) throws Exception {
        return ObjectStores.open("s3", S3Settings.store(PROXY.server(), PROXY.bucket()));
    }

    @Override
    protected Set<ObjectStoreCapability> capabilities() {
        return EnumSet.allOf(ObjectStoreCapability.class);
    }
}
