package io.krabka.objectstore;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.storage.RemoteStorageManager;
import io.krabka.testkit.RemoteStorageManagerConformance;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The conformance kit against the storage manager over a directory store, under a key prefix. The module's tests
 * run with a heap below the kit's large segment, so its streaming rule is checked.
 */
class ObjectStoreRemoteStorageManagerConformanceTest extends RemoteStorageManagerConformance {

    @Override
    protected RemoteStorageManager createRemoteStorageManager(Path scratch) {
        ObjectStoreRemoteStorageManager rsm = new ObjectStoreRemoteStorageManager(
                configs -> new ObjectStoreRemoteStorageManager.Tier(new DirectoryObjectStore(scratch),
                        SegmentObjectKeys.underPrefix("tier/a")));
        rsm.configure(Map.of());
        return rsm;
    }

    @Test
    void heapIsSmallerThanTheKitsLargeSegment() {
        long heap = Runtime.getRuntime().maxMemory();
        assertTrue(heap < largeSegmentBytes(), "the surefire -Xmx gives a heap of " + heap
                + " bytes, not below the kit's large segment of " + largeSegmentBytes() + " bytes");
    }
}
