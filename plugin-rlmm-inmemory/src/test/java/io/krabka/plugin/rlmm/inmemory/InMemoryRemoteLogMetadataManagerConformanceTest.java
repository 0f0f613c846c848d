package io.krabka.plugin.rlmm.inmemory;

import io.krabka.spi.storage.RemoteLogMetadataManager;
import io.krabka.testkit.RemoteLogMetadataManagerCapability;
import io.krabka.testkit.RemoteLogMetadataManagerConformance;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/** The conformance kit against the plugin with its snapshot file in the rule's directory. */
class InMemoryRemoteLogMetadataManagerConformanceTest extends RemoteLogMetadataManagerConformance {

    @Override
    protected RemoteLogMetadataManager createRemoteLogMetadataManager(Path scratch) {
        InMemoryRemoteLogMetadataManager rlmm = new InMemoryRemoteLogMetadataManager();
        rlmm.configure(Map.of(
                InMemoryRemoteLogMetadataManagerConfig.SNAPSHOT_PATH,
                scratch.resolve("snapshot.json").toString()));
        return rlmm;
    }

    /**
     * Skips segments without aborted transactions as Kafka's cache does, and is durable through its snapshot,
     * which {@code close} writes and {@code configure} loads.
     */
    @Override
    protected Set<RemoteLogMetadataManagerCapability> capabilities() {
        return EnumSet.of(
                RemoteLogMetadataManagerCapability.NEXT_SEGMENT_WITH_TXN_INDEX,
                RemoteLogMetadataManagerCapability.DURABLE);
    }
}
