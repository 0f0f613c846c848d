package io.krabka.kernel.group;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.log.LogManager;
import io.krabka.kernel.log.LogManagerConfig;
import io.krabka.kernel.log.MetaPropertiesEnsemble;
import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.scheduler.KafkaScheduler;
import io.krabka.spi.common.TopicPartition;
import io.krabka.spi.common.Uuid;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableTopic;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableTopicCollection;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many threads committing and fetching at once on the real coordinator and logs: every answer reads its own or a
 * later write, and what the logs hold after the storm loads back into a new coordinator as the last commits.
 */
class GroupCoordinatorConcurrencyTest {

    private static final int GROUPS = 8;
    private static final int COMMITS = 200;

    @TempDir
    Path dir;

    private record Broker(
            KafkaScheduler scheduler, LogManager logs, TestController controller, GroupCoordinator coordinator) {

        static Broker start(Path dir, MetadataImage image) throws Exception {
            KafkaScheduler scheduler = new KafkaScheduler(4, "group-concurrency-");
            TestController controller = new TestController(image);
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
            controller.register(new TestReplicaManager(logs));
            controller.register(coordinator);
            return new Broker(scheduler, logs, controller, coordinator);
        }

        void awaitLoaded(String groupId) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (coordinator.fetchOffsets(groupId, List.of(), false).error() != Errors.NONE) {
                assertTrue(System.nanoTime() < deadline, "the partition of " + groupId + " loads");
                Thread.sleep(5);
            }
        }

        void stop() throws Exception {
            coordinator.close();
            logs.close();
            scheduler.shutdown();
        }
    }

    private static String group(int index) {
        return "group-" + index;
    }

    @Test
    void concurrentCommitsAreEachAnsweredAfterTheirWriteAndLoadBack() throws Exception {
        MetaPropertiesEnsemble.format(List.of(dir), "cluster-concurrency", TestController.NODE_ID);
        Broker broker = Broker.start(dir, MetadataImage.EMPTY);
        CreatableTopicCollection topics = new CreatableTopicCollection();
        topics.add(new CreatableTopic().setName("orders").setNumPartitions(2).setReplicationFactor((short) 1));
        broker.controller()
                .createTopics(new CreateTopicsRequestData().setTopics(topics))
                .join();
        assertEquals(Errors.NONE, broker.coordinator().findCoordinator(group(0)).join());
        for (int g = 0; g < GROUPS; g++) {
            broker.awaitLoaded(group(g));
        }

        ExecutorService threads = Executors.newFixedThreadPool(GROUPS * 2);
        CountDownLatch go = new CountDownLatch(1);
        List<Future<?>> work = new ArrayList<>();
        for (int g = 0; g < GROUPS; g++) {
            String groupId = group(g);
            // A committer per group, the offsets rising; a reader per group, never seeing them fall.
            work.add(threads.submit(() -> {
                go.await();
                for (int n = 1; n <= COMMITS; n++) {
                    List<Errors> errors = broker.coordinator()
                            .commitOffsets(
                                    groupId,
                                    "",
                                    null,
                                    -1,
                                    -1,
                                    List.of(
                                            new PartitionCommit("orders", Uuid.ZERO_UUID, 0, n, -1, "c" + n),
                                            new PartitionCommit("orders", Uuid.ZERO_UUID, 1, n * 10L, -1, "")));
                    assertEquals(List.of(Errors.NONE, Errors.NONE), errors);
                    OffsetCommitValue read = broker.coordinator()
                            .fetchOffsets(groupId, List.of(new TopicPartition("orders", 0)), false)
                            .offsets()
                            .get(new TopicPartition("orders", 0));
                    assertTrue(read.offset() >= n, "a fetch after a commit sees it");
                }
                return null;
            }));
            work.add(threads.submit(() -> {
                go.await();
                long last = -1;
                for (int n = 0; n < COMMITS; n++) {
                    OffsetCommitValue read = broker.coordinator()
                            .fetchOffsets(groupId, List.of(new TopicPartition("orders", 1)), false)
                            .offsets()
                            .get(new TopicPartition("orders", 1));
                    long offset = read == null ? -1 : read.offset();
                    assertTrue(offset >= last, "offsets never go back: " + offset + " after " + last);
                    last = offset;
                }
                return null;
            }));
        }
        go.countDown();
        for (Future<?> task : work) {
            task.get(60, TimeUnit.SECONDS);
        }
        threads.shutdown();

        MetadataImage image = broker.controller().image();
        broker.stop();
        Broker restarted = Broker.start(dir, image);
        try {
            for (int g = 0; g < GROUPS; g++) {
                restarted.awaitLoaded(group(g));
                GroupOffsets offsets = restarted.coordinator().fetchOffsets(group(g), null, false);
                assertEquals(
                        COMMITS,
                        offsets.offsets().get(new TopicPartition("orders", 0)).offset());
                assertEquals(
                        "c" + COMMITS,
                        offsets.offsets().get(new TopicPartition("orders", 0)).metadata());
                assertEquals(
                        COMMITS * 10L,
                        offsets.offsets().get(new TopicPartition("orders", 1)).offset());
            }
        } finally {
            restarted.stop();
        }
    }
}
