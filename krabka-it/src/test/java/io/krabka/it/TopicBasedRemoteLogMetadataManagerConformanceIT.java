package io.krabka.it;

import io.krabka.kernel.plugin.PluginRegistry;
import io.krabka.spi.storage.RemoteLogMetadataManager;
import io.krabka.testkit.RemoteLogMetadataManagerCapability;
import io.krabka.testkit.RemoteLogMetadataManagerConformance;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * The metadata-manager conformance kit against the distribution's {@code topic} plugin, loaded in its own module
 * layer as the broker loads it and selected by Kafka's class name, over a reference Apache Kafka 4.4 broker that
 * holds {@code __remote_log_metadata}. Each rule's manager keeps its snapshot in the rule's directory; the topic is
 * shared, and the rules' partitions are their own.
 */
@ResourceLock(ReferenceKafka.BROKER_LOCK)
class TopicBasedRemoteLogMetadataManagerConformanceIT extends RemoteLogMetadataManagerConformance {

    private static ReferenceKafka kafka;
    private static PluginRegistry plugins;

    @BeforeAll
    static void startKafka(@TempDir Path dir) throws Exception {
        kafka = ReferenceKafka.start("4.4.0", dir, Map.of());
        plugins = DistributionPlugins.discover();
    }

    @AfterAll
    static void stopKafka() {
        if (kafka != null) {
            kafka.close();
        }
    }

    @Override
    protected RemoteLogMetadataManager createRemoteLogMetadataManager(Path scratch) {
        return plugins.createRemoteLogMetadataManager(
                "org.apache.kafka.server.log.remote.metadata.storage.TopicBasedRemoteLogMetadataManager",
                Map.of(
                        "remote.log.metadata.common.client.bootstrap.servers", kafka.bootstrapServers(),
                        "remote.log.metadata.topic.replication.factor", "1",
                        "remote.log.metadata.topic.num.partitions", "5",
                        "broker.id", "1",
                        "tiered.storage.dir", scratch.toString()));
    }

    /** Kafka's cache answers; durable through the topic, and through the snapshot the first instance wrote. */
    @Override
    protected Set<RemoteLogMetadataManagerCapability> capabilities() {
        return EnumSet.of(
                RemoteLogMetadataManagerCapability.NEXT_SEGMENT_WITH_TXN_INDEX,
                RemoteLogMetadataManagerCapability.DURABLE);
    }
}
