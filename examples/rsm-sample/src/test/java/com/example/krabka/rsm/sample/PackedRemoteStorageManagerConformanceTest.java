package com.example.krabka.rsm.sample;

import io.krabka.spi.storage.RemoteStorageManager;
import io.krabka.testkit.RemoteStorageManagerConformance;
import java.nio.file.Path;
import java.util.Map;

/**
 * Krabka's conformance kit against the pack tier, with the default capabilities: deletes delete, segments
 * survive a restart, copies return no custom metadata.
 */
class PackedRemoteStorageManagerConformanceTest extends RemoteStorageManagerConformance {

    @Override
    protected RemoteStorageManager createRemoteStorageManager(Path scratch) {
        PackedRemoteStorageManager rsm = new PackedRemoteStorageManager();
        rsm.configure(Map.of("dir", scratch.toString()));
        return rsm;
    }

    /** Larger than the test JVM's heap (-Xmx64m in the pom), so the rule can tell streaming from buffering. */
    @Override
    protected int largeSegmentBytes() {
        return 128 << 20;
    }
}
