package io.krabka.plugin.rsm.local;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.storage.RemoteStorageManager;
import io.krabka.testkit.RemoteStorageManagerCapability;
import io.krabka.testkit.RemoteStorageManagerConformance;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The conformance kit against the plugin with its default settings. The module's tests run with a heap far below
 * the kit's large segment, so the kit's streaming rule is checked rather than reported {@code NOT VERIFIED}.
 */
class LocalRemoteStorageManagerConformanceTest extends RemoteStorageManagerConformance {

    @Override
    protected RemoteStorageManager createRemoteStorageManager(Path scratch) {
        LocalRemoteStorageManager rsm = new LocalRemoteStorageManager();
        rsm.configure(Map.of("dir", scratch.toString()));
        return rsm;
    }

    /** Deletes remove the files, segments outlive the instance, and a copy returns no custom metadata. */
    @Override
    protected Set<RemoteStorageManagerCapability> capabilities() {
        return EnumSet.of(RemoteStorageManagerCapability.DELETE, RemoteStorageManagerCapability.DURABLE);
    }

    /** Fails where the kit would only skip its streaming rule as {@code NOT VERIFIED}: a heap as large as its segment. */
    @Test
    void heapIsSmallerThanTheKitsLargeSegment() {
        long heap = Runtime.getRuntime().maxMemory();
        assertTrue(
                heap < largeSegmentBytes(),
                "the module's surefire -Xmx gives a heap of " + heap + " bytes, not below the kit's large segment of "
                        + largeSegmentBytes() + " bytes");
    }
}
