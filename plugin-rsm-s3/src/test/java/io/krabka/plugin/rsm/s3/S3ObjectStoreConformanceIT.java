package io.krabka.plugin.rsm.s3;

import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.testkit.ObjectStoreCapability;
import io.krabka.testkit.ObjectStoreConformance;
import io.krabka.testkit.ObjectStores;
import io.krabka.testservers.RadosgwBuckets;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Set;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The object-store kit against the {@code s3} store on radosgw, in a bucket under Object Lock (COMPLIANCE, one
 * day), with the capabilities radosgw 16 really has there: it keeps versions, but ignores {@code If-None-Match: *}
 * in a versioned bucket (a create does not refuse an existing key) and refuses to delete a locked version.
 */
class S3ObjectStoreConformanceIT extends ObjectStoreConformance {
    @RegisterExtension
    static final RadosgwBuckets RGW = RadosgwBuckets.complianceLocked(1);

    @Override
    protected ObjectStore createObjectStore(Path scratch) throws Exception {
        return ObjectStores.open("s3", S3Settings.store(RGW.server(), RGW.bucket()));
    }

    @Override
    protected Set<ObjectStoreCapability> capabilities() {
        return EnumSet.of(ObjectStoreCapability.VERSIONS);
    }
}
