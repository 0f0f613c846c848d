package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidPartitionsException;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Apache Kafka's own AdminClient (kafka-clients 4.4) administers Krabka's broker, run as a user runs it: topics,
 * partitions and configs are created, described, altered and deleted, Kafka's errors come back as Kafka's
 * exceptions, and what was changed is still there after a restart.
 */
class BrokerAdminIT {
    private static KrabkaBroker broker;
    private static Admin admin;

    @BeforeAll
    static void start() throws Exception {
        broker = KrabkaBroker.start(Path.of(System.getProperty(KafkaLogs.WORK_PROPERTY), "broker-admin"), Map.of());
        admin = admin();
    }

    @AfterAll
    static void stop() throws Exception {
        if (admin != null) {
            admin.close();
        }
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void topicsAreCreatedDescribedGrownAndDeleted() throws Exception {
        get(admin.createTopics(List.of(
                        new NewTopic("orders", 3, (short) 1),
                        new NewTopic("audit", 1, (short) 1).configs(Map.of("cleanup.policy", "compact"))))
                .all());
        Map<String, TopicDescription> described =
                get(admin.describeTopics(List.of("orders", "audit")).allTopicNames());
        assertEquals(3, described.get("orders").partitions().size());
        assertFalse(described.get("orders").topicId().equals(Uuid.ZERO_UUID), "a topic id");
        described.get("orders").partitions().forEach(partition -> {
            assertEquals(1, partition.leader().id(), "the one node leads " + partition);
            assertEquals(List.of(partition.leader()), partition.replicas());
            assertEquals(List.of(partition.leader()), partition.isr());
        });
        assertTrue(get(admin.listTopics().names()).containsAll(Set.of("orders", "audit")));

        get(admin.createPartitions(Map.of("orders", NewPartitions.increaseTo(5)))
                .all());
        assertEquals(
                5,
                get(admin.describeTopics(List.of("orders")).allTopicNames())
                        .get("orders")
                        .partitions()
                        .size());

        get(admin.deleteTopics(List.of("audit")).all());
        assertFalse(get(admin.listTopics().names()).contains("audit"));
    }

    @Test
    void kafkasErrorsComeBackAsKafkasExceptions() throws Exception {
        get(admin.createTopics(List.of(new NewTopic("taken", 1, (short) 1))).all());
        assertCause(
                TopicExistsException.class,
                admin.createTopics(List.of(new NewTopic("taken", 1, (short) 1))).all());
        assertCause(
                InvalidPartitionsException.class,
                admin.createPartitions(Map.of("taken", NewPartitions.increaseTo(1)))
                        .all());
        assertCause(
                InvalidConfigurationException.class,
                admin.createTopics(List.of(
                                new NewTopic("bad-config", 1, (short) 1).configs(Map.of("retention.ms", "soon"))))
                        .all());
        assertCause(
                UnknownTopicOrPartitionException.class,
                admin.deleteTopics(List.of("never-made")).all());
        assertCause(
                UnknownTopicOrPartitionException.class,
                admin.describeTopics(List.of("never-made")).allTopicNames());
    }

    @Test
    void topicConfigsAreDescribedAlteredAndKeptAcrossARestart() throws Exception {
        get(admin.createTopics(
                        List.of(new NewTopic("settings", 2, (short) 1).configs(Map.of("retention.ms", "3600000"))))
                .all());
        ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, "settings");
        Config config = get(admin.describeConfigs(List.of(topic)).all()).get(topic);
        assertEquals("3600000", config.get("retention.ms").value());
        assertEquals(
                ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG,
                config.get("retention.ms").source());
        assertEquals("1073741824", config.get("segment.bytes").value(), "Kafka's default");
        assertEquals(
                ConfigEntry.ConfigSource.DEFAULT_CONFIG,
                config.get("segment.bytes").source());

        get(admin.incrementalAlterConfigs(Map.of(
                        topic,
                        List.of(
                                new AlterConfigOp(
                                        new ConfigEntry("max.message.bytes", "2000000"), AlterConfigOp.OpType.SET),
                                new AlterConfigOp(new ConfigEntry("retention.ms", ""), AlterConfigOp.OpType.DELETE))))
                .all());
        config = get(admin.describeConfigs(List.of(topic)).all()).get(topic);
        assertEquals("2000000", config.get("max.message.bytes").value());
        assertEquals("604800000", config.get("retention.ms").value(), "back to Kafka's default");

        assertEquals(0, broker.stop(), "a clean stop");
        broker.start();
        try (Admin restarted = admin()) {
            config = get(restarted.describeConfigs(List.of(topic)).all()).get(topic);
            assertEquals("2000000", config.get("max.message.bytes").value());
            assertEquals(
                    2,
                    get(restarted.describeTopics(List.of("settings")).allTopicNames())
                            .get("settings")
                            .partitions()
                            .size());
        }
        admin.close();
        admin = admin();
    }

    @Test
    void theClusterIsOneNodeThatIsAlsoTheController() throws Exception {
        Collection<org.apache.kafka.common.Node> nodes =
                get(admin.describeCluster().nodes());
        assertEquals(1, nodes.size());
        org.apache.kafka.common.Node node = nodes.iterator().next();
        assertEquals(broker.bootstrapServers(), node.host() + ":" + node.port());
        assertEquals(node.id(), get(admin.describeCluster().controller()).id());
        assertEquals(22, get(admin.describeCluster().clusterId()).length(), "a Kafka cluster id");
    }

    private static Admin admin() {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
    }

    private static <T> T get(KafkaFuture<T> future) throws Exception {
        return future.get(60, TimeUnit.SECONDS);
    }

    private static void assertCause(Class<? extends Throwable> expected, KafkaFuture<?> future) {
        ExecutionException thrown = assertThrows(ExecutionException.class, () -> get(future));
        assertInstanceOf(expected, thrown.getCause(), thrown::toString);
    }
}
