package io.krabka.plugin.rsm.s3;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.storage.RemoteStorageManager;
import io.krabka.testkit.RemoteStorageManagerConformance;
import io.krabka.testservers.RadosgwBuckets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The conformance kit against the plugin on a real Ceph radosgw. Each rule gets its own key prefix. Files of
 * 8 MiB and more go in 5 MiB parts, so the kit's large segment (64 MiB, above the IT's heap) is a multipart upload
 * of 13 parts, and its small segments single PUTs.
 */
class S3RemoteStorageManagerConformanceIT extends RemoteStorageManagerConformance {
    @RegisterExtension
    static final RadosgwBuckets RGW = new RadosgwBuckets();

    @Override
    protected RemoteStorageManager createRemoteStorageManager(Path scratch) {
        Map<String, Object> settings = S3Settings.of(RGW.server(), RGW.server().endpoint(), RGW.bucket(),
                "kit/" + scratch.getParent().getFileName());
        settings.put(S3StorageConfig.MULTIPART_THRESHOLD_BYTES, 8L << 20);
        settings.put(S3StorageConfig.MULTIPART_PART_SIZE_BYTES, 5L << 20);
        RemoteStorageManager rsm = new S3RemoteStorageManagerProvider().create();
        rsm.configure(settings);
        return rsm;
    }

    /** Small enough for radosgw's memstore, larger than the heap failsafe gives. */
    @Override
    protected int largeSegmentBytes() {
        return 128 << 20;
    }

    @Test
    void heapIsSmallerThanTheKitsLargeSegment() {
        long heap = Runtime.getRuntime().maxMemory();
        assertTrue(heap < largeSegmentBytes(), "the failsafe -Xmx gives a heap of " + heap
                + " bytes, not below the kit's large segment of " + largeSegmentBytes() + " bytes");
    }
}
