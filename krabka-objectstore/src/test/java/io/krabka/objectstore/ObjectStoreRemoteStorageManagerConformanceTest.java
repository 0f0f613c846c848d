package io.krabka.objectstore;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.spi.storage.RemoteStorageManager;
import io.krabka.testkit.ObjectStores;
import io.krabka.testkit.RemoteStorageManagerConformance;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The conformance kit against the storage manager over the local plugin's directory store, under a key prefix. The module's tests
 * run with a heap below the kit's large segment, so its streaming rule is checked.
 */
class ObjectStoreRemoteStorageManagerConformanceTest extends RemoteStorageManagerConformance {

    @Override
    protected RemoteStorageManager createRemoteStorageManager(Path scratch) throws RemoteStorageException {
        ObjectStore store = ObjectStores.open("local", Map.of("dir", scratch.toString()));
        ObjectStoreRemoteStorageManager rsm = new ObjectStoreRemoteStorageManager(
                configs -> new ObjectStoreRemoteStorageManager.Tier(store, SegmentObjectKeys.underPrefix("tier/a")));
        rsm.configure(Map.of());
        return rsm;
    }

    @Test
    void heapIsSmallerThanTheKitsLargeSegment() {
        long heap = Runtime.getRuntime().maxMemory();
        assertTrue(
                heap < largeSegmentBytes(),
                "the surefire -Xmx gives a heap of " + heap + " bytes, not below the kit's large segment of "
                        + largeSegmentBytes() + " bytes");
    }
}
