package io.krabka.kernel.transaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.controller.Controllers;
import io.krabka.kernel.controller.QuorumController;
import io.krabka.kernel.group.GroupCoordinator;
import io.krabka.kernel.group.GroupCoordinatorConfig;
import io.krabka.kernel.log.LogManager;
import io.krabka.kernel.log.LogManagerConfig;
import io.krabka.kernel.log.MetaPropertiesEnsemble;
import io.krabka.kernel.log.TestTime;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.replica.ReplicaManager;
import io.krabka.kernel.replica.ReplicaManagerConfig;
import io.krabka.kernel.scheduler.KafkaScheduler;
import io.krabka.spi.common.TopicPartition;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableTopic;
import org.apache.kafka.common.protocol.Errors;

/**
 * A node's transaction coordinator over real logs, in the test's JVM: the controller, the log manager, the replica
 * manager, the group and transaction coordinators, the coordinators on a {@link TestTime} the test moves. The
 * coordinator can be stopped and a new one started on the same logs, as a restart of the broker starts it.
 */
final class TransactionFixture implements AutoCloseable {

    static final int NODE_ID = Controllers.NODE_ID;

    final TestTime time = new TestTime();
    private final Map<String, String> settings;
    private final Controllers controllers;
    final QuorumController controller;
    final KafkaScheduler scheduler = new KafkaScheduler(2, "transaction-fixture-");
    final LogManager logManager;
    final ReplicaManager replicaManager;
    GroupCoordinator groups;
    TransactionCoordinator coordinator;

    /** A node on {@code dir}, its coordinators with these broker settings. */
    TransactionFixture(Path dir, Map<String, String> settings) throws Exception {
        this.settings = Map.copyOf(settings);
        Path logDir = dir.resolve("data");
        MetaPropertiesEnsemble.format(List.of(logDir), "transaction-fixture", NODE_ID);
        controllers = Controllers.formatAndStart(dir.resolve("metadata"), Map.of());
        controller = controllers.controller();
        logManager = new LogManager(
                LogManagerConfig.fromProps(Map.of("log.dirs", logDir.toString(), "node.id", String.valueOf(NODE_ID))),
                topic -> LogConfig.fromProps(Map.of(), controller.image().topicConfig(topic)),
                scheduler,
                InstantSource.system());
        logManager.startup();
        replicaManager = new ReplicaManager(new ReplicaManagerConfig(NODE_ID, Map.of()), logManager, scheduler);
        controller.register(replicaManager);
        startCoordinators();
    }

    /** Stops the coordinators, as a broker's shutdown does, and starts new ones on the same logs. */
    void restartCoordinators() {
        coordinator.close();
        groups.close();
        startCoordinators();
    }

    private void startCoordinators() {
        Map<String, String> props =
                new HashMap<>(Map.of("transaction.state.log.num.partitions", "1", "offsets.topic.num.partitions", "1"));
        props.putAll(settings);
        groups = new GroupCoordinator(
                NODE_ID, GroupCoordinatorConfig.fromProps(props), controller, logManager, scheduler, time);
        controller.register(groups);
        coordinator = new TransactionCoordinator(
                NODE_ID,
                TransactionCoordinatorConfig.fromProps(props),
                controller,
                logManager,
                replicaManager,
                groups,
                new ProducerIdManager(controller, NODE_ID),
                scheduler,
                time);
        controller.register(coordinator);
        coordinator.startup();
    }

    /** Creates {@code __transaction_state} if needed and waits until the coordinator serves its partitions. */
    void awaitCoordinator() throws Exception {
        assertEquals(Errors.NONE, coordinator.findCoordinator("any").get(30, TimeUnit.SECONDS));
        await(
                () -> coordinator.describeTransaction("any").errorCode() != Errors.COORDINATOR_LOAD_IN_PROGRESS.code(),
                "the partitions of __transaction_state load");
    }

    /** Creates a topic. */
    void createTopic(String name, int partitions) {
        CreateTopicsRequestData request = new CreateTopicsRequestData();
        request.topics()
                .add(new CreatableTopic()
                        .setName(name)
                        .setNumPartitions(partitions)
                        .setReplicationFactor((short) 1));
        assertEquals(
                Errors.NONE.code(),
                controller.createTopics(request).join().topics().find(name).errorCode());
    }

    UnifiedLog log(TopicPartition partition) {
        return logManager.getLog(partition).orElseThrow();
    }

    /** Waits, within a bound that only keeps a broken coordinator from hanging the build, for {@code condition}. */
    static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, what);
            Thread.sleep(10);
        }
    }

    @Override
    public void close() throws java.io.IOException {
        coordinator.close();
        groups.close();
        replicaManager.close();
        logManager.close();
        try {
            scheduler.shutdown();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            controllers.close();
        }
    }
}
