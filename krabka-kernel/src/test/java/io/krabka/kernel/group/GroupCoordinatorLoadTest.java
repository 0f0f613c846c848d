package io.krabka.kernel.group;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.log.LogManager;
import io.krabka.kernel.log.LogManagerConfig;
import io.krabka.kernel.log.MetaPropertiesEnsemble;
import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.scheduler.KafkaScheduler;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The coordinator's partitions load once their logs exist, even when the logs come after the image. */
class GroupCoordinatorLoadTest {

    @TempDir
    Path dir;

    @Test
    void aPartitionWaitsForItsLogAndIsLoadInProgressMeanwhile() throws Exception {
        MetaPropertiesEnsemble.format(List.of(dir), "cluster-load", TestController.NODE_ID);
        KafkaScheduler scheduler = new KafkaScheduler(2, "group-load-");
        TestController controller = new TestController(MetadataImage.EMPTY);
        LogManager logs = new LogManager(
                LogManagerConfig.fromProps(Map.of("log.dirs", dir.toString(), "node.id", "1")),
                topic -> LogConfig.fromProps(Map.of(), controller.image().topicConfig(topic)),
                scheduler,
                Clock.systemUTC());
        logs.startup();
        GroupCoordinator coordinator = new GroupCoordinator(
                TestController.NODE_ID,
                GroupCoordinatorConfig.DEFAULTS,
                controller,
                logs,
                scheduler,
                Clock.systemUTC());
        try {
            // The coordinator alone sees the topic created: no log exists for it yet.
            controller.register(coordinator);
            assertEquals(
                    Errors.NOT_COORDINATOR,
                    coordinator.heartbeat(
                            new org.apache.kafka.common.message.HeartbeatRequestData().setGroupId("payments")),
                    "before the topic exists");
            assertEquals(Errors.NONE, coordinator.findCoordinator("payments").join());
            assertEquals(
                    Errors.COORDINATOR_LOAD_IN_PROGRESS,
                    coordinator.fetchOffsets("payments", null, false).error());

            controller.register(new TestReplicaManager(logs));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (coordinator.fetchOffsets("payments", null, false).error() != Errors.NONE) {
                assertTrue(System.nanoTime() < deadline, "the partition loads once its log exists");
                Thread.sleep(10);
            }
            assertEquals(
                    Errors.UNKNOWN_MEMBER_ID,
                    coordinator.heartbeat(
                            new org.apache.kafka.common.message.HeartbeatRequestData().setGroupId("payments")));
        } finally {
            coordinator.close();
            logs.close();
            scheduler.shutdown();
        }
    }
}
