package io.krabka.kernel.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.CreatePartitionsOptions;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.DescribeClusterResult;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicCollection;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka 4.4's AdminClient (and a consumer's metadata) against the control plane over TCP: topics, partitions and
 * configs are created, described, altered and deleted; the errors are Kafka's exceptions with Kafka's messages, as a
 * Kafka 4.4 broker answered the same requests; DescribeConfigs of a topic answers what Kafka 4.4 answered for the
 * same topic (the files under {@code kafka-4.4/}, recorded from a Kafka 4.4 broker with the same settings).
 */
class ControlPlaneIT {

    @TempDir
    Path dir;

    private ControlPlane plane;
    private Admin admin;

    @BeforeEach
    void start() throws Exception {
        plane = ControlPlane.start(dir, Map.of("num.partitions", "1"), true);
        admin = Admin.create(Map.of(
                "bootstrap.servers",
                plane.bootstrapServers(),
                "default.api.timeout.ms",
                20000,
                "request.timeout.ms",
                10000));
    }

    @AfterEach
    void stop() throws IOException {
        admin.close(Duration.ofSeconds(10));
        plane.close();
    }

    @Test
    void topicsAreCreatedDescribedGrownAndDeleted() throws Exception {
        CreateTopicsResult created = admin.createTopics(List.of(
                new NewTopic("orders", 3, (short) 1)
                        .configs(Map.of("retention.ms", "1000", "cleanup.policy", "compact")),
                new NewTopic("dflt", Optional.empty(), Optional.empty())));
        created.all().get();
        assertEquals(3, created.numPartitions("orders").get());
        assertEquals(1, created.replicationFactor("orders").get());
        Uuid ordersId = created.topicId("orders").get();
        assertEquals("1000", created.config("orders").get().get("retention.ms").value());
        assertEquals(
                ConfigEntry.ConfigSource.DYNAMIC_TOPIC_CONFIG,
                created.config("orders").get().get("retention.ms").source());
        assertEquals(1, created.numPartitions("dflt").get(), "num.partitions");

        assertEquals(Set.of("orders", "dflt"), admin.listTopics().names().get());
        TopicDescription orders =
                admin.describeTopics(List.of("orders")).allTopicNames().get().get("orders");
        assertEquals(ordersId, orders.topicId());
        assertEquals(3, orders.partitions().size());
        orders.partitions().forEach(partition -> {
            assertEquals(1, partition.leader().id());
            assertEquals(
                    plane.bootstrapServers(),
                    partition.leader().host() + ":" + partition.leader().port());
            assertEquals(List.of(partition.leader()), partition.replicas());
            assertEquals(List.of(partition.leader()), partition.isr());
        });

        admin.createPartitions(Map.of("orders", NewPartitions.increaseTo(5)))
                .all()
                .get();
        assertEquals(
                5,
                admin.describeTopics(List.of("orders"))
                        .allTopicNames()
                        .get()
                        .get("orders")
                        .partitions()
                        .size());

        admin.deleteTopics(TopicCollection.ofTopicIds(List.of(ordersId))).all().get();
        admin.deleteTopics(List.of("dflt")).all().get();
        assertEquals(Set.of(), admin.listTopics().names().get());
    }

    @Test
    void createTopicsErrorsAreKafkas() throws Exception {
        admin.createTopics(List.of(new NewTopic("probe", 3, (short) 1), new NewTopic("a.b", 1, (short) 1)))
                .all()
                .get();
        Map<String, String> errors = new TreeMap<>();
        CreateTopicsResult result = admin.createTopics(List.of(
                new NewTopic("bad name", 1, (short) 1),
                new NewTopic("rf3", 1, (short) 3),
                new NewTopic("rf0", 1, (short) 0),
                new NewTopic("p0", 0, (short) 1),
                new NewTopic("pneg", -5, (short) 1),
                new NewTopic("cfg2", 1, (short) 1).configs(Map.of("no.such.config", "1")),
                new NewTopic("cfg4", 1, (short) 1).configs(Map.of("cleanup.policy", "foo")),
                new NewTopic("probe", 1, (short) 1),
                new NewTopic("a_b", 1, (short) 1),
                new NewTopic("assign2", Map.of(0, List.of(1), 2, List.of(1))),
                new NewTopic("assign3", Map.of(0, List.of(7))),
                new NewTopic("assign4", Map.of(0, List.<Integer>of())),
                new NewTopic("assign5", Map.of(0, List.of(1, 1)))));
        result.values().forEach((name, future) -> errors.put(name, failure(future)));
        // Kafka 4.4's answers to the same requests.
        assertEquals(
                "InvalidTopicException: Topic name is invalid: 'bad name' contains one or more characters other "
                        + "than ASCII alphanumerics, '.', '_' and '-'",
                errors.get("bad name"));
        assertEquals(
                "InvalidReplicationFactorException: Unable to replicate the partition 3 time(s): The target "
                        + "replication factor of 3 cannot be reached because only 1 broker(s) are registered or some brokers "
                        + "have all their log directories cordoned.",
                errors.get("rf3"));
        assertEquals(
                "InvalidReplicationFactorException: Replication factor must be larger than 0, or -1 to use the "
                        + "default value.",
                errors.get("rf0"));
        assertEquals(
                "InvalidPartitionsException: Number of partitions was set to an invalid non-positive value.",
                errors.get("p0"));
        assertEquals(errors.get("p0"), errors.get("pneg"));
        assertEquals("InvalidConfigurationException: Unknown topic config name: no.such.config", errors.get("cfg2"));
        assertTrue(errors.get("cfg4").startsWith("InvalidConfigurationException: "), errors.get("cfg4"));
        assertEquals("TopicExistsException: Topic 'probe' already exists.", errors.get("probe"));
        assertEquals("InvalidTopicException: Topic 'a_b' collides with existing topic: a.b", errors.get("a_b"));
        assertEquals(
                "InvalidReplicaAssignmentException: partitions should be a consecutive 0-based integer sequence",
                errors.get("assign2"));
        assertEquals(
                "InvalidReplicaAssignmentException: The manual partition assignment includes broker 7, but no such "
                        + "broker is registered.",
                errors.get("assign3"));
        assertEquals(
                "InvalidReplicaAssignmentException: The manual partition assignment includes an empty replica list.",
                errors.get("assign4"));
        assertEquals(
                "InvalidReplicaAssignmentException: The manual partition assignment includes the broker 1 more "
                        + "than once.",
                errors.get("assign5"));

        admin.createTopics(List.of(new NewTopic("vo", 2, (short) 1)), new CreateTopicsOptions().validateOnly(true))
                .all()
                .get();
        assertFalse(admin.listTopics().names().get().contains("vo"));
    }

    @Test
    void createPartitionsAndDeleteTopicsErrorsAreKafkas() throws Exception {
        admin.createTopics(List.of(new NewTopic("probe", 3, (short) 1))).all().get();
        assertEquals(
                "InvalidPartitionsException: Topic already has 3 partition(s).",
                failure(admin.createPartitions(Map.of("probe", NewPartitions.increaseTo(3)))
                        .all()));
        assertEquals(
                "InvalidPartitionsException: The topic probe currently has 3 partition(s); 2 would not be an "
                        + "increase.",
                failure(admin.createPartitions(Map.of("probe", NewPartitions.increaseTo(2)))
                        .all()));
        assertEquals(
                "UnknownTopicOrPartitionException: This server does not host this topic-partition.",
                failure(admin.createPartitions(Map.of("nope", NewPartitions.increaseTo(2)))
                        .all()));
        assertEquals(
                "InvalidReplicaAssignmentException: Attempted to add 2 additional partition(s), but only 1 "
                        + "assignment(s) were specified.",
                failure(admin.createPartitions(Map.of("probe", NewPartitions.increaseTo(5, List.of(List.of(1)))))
                        .all()));
        assertEquals(
                "InvalidReplicaAssignmentException: The manual partition assignment includes the broker 1 more than "
                        + "once.",
                failure(admin.createPartitions(Map.of("probe", NewPartitions.increaseTo(4, List.of(List.of(1, 1)))))
                        .all()));
        admin.createPartitions(
                        Map.of("probe", NewPartitions.increaseTo(9)), new CreatePartitionsOptions().validateOnly(true))
                .all()
                .get();
        assertEquals(
                3,
                admin.describeTopics(List.of("probe"))
                        .allTopicNames()
                        .get()
                        .get("probe")
                        .partitions()
                        .size());

        assertEquals(
                "UnknownTopicOrPartitionException: This server does not host this topic-partition.",
                failure(admin.deleteTopics(List.of("nope")).all()));
        assertEquals(
                "UnknownTopicIdException: This server does not host this topic ID.",
                failure(admin.deleteTopics(TopicCollection.ofTopicIds(List.of(Uuid.randomUuid())))
                        .all()));
    }

    @Test
    void describeConfigsOfATopicIsKafkas() throws Exception {
        admin.createTopics(List.of(
                        new NewTopic("a.b", 1, (short) 1),
                        new NewTopic("withcfg", 2, (short) 1)
                                .configs(Map.of("retention.ms", "1000", "cleanup.policy", "compact")),
                        new NewTopic("probe", 3, (short) 1)))
                .all()
                .get();
        ConfigResource probe = new ConfigResource(ConfigResource.Type.TOPIC, "probe");
        admin.incrementalAlterConfigs(Map.of(
                        probe,
                        List.of(
                                new AlterConfigOp(new ConfigEntry("retention.ms", "5000"), AlterConfigOp.OpType.SET),
                                new AlterConfigOp(
                                        new ConfigEntry("cleanup.policy", "compact"), AlterConfigOp.OpType.APPEND))))
                .all()
                .get();

        assertEquals(kafka("describe-configs-topic-defaults.txt"), describe("a.b"));
        assertEquals(kafka("describe-configs-topic-withcfg.txt"), describe("withcfg"));
        assertEquals(kafka("describe-configs-topic-probe.txt"), describe("probe"));

        ConfigResource topic = new ConfigResource(ConfigResource.Type.TOPIC, "a.b");
        Config withDocs = admin.describeConfigs(List.of(topic), new DescribeConfigsOptions().includeDocumentation(true))
                .all()
                .get()
                .get(topic);
        assertFalse(withDocs.get("segment.bytes").documentation().isEmpty());

        assertEquals(
                "UnknownTopicOrPartitionException: ",
                failure(admin.describeConfigs(List.of(new ConfigResource(ConfigResource.Type.TOPIC, "nope")))
                        .all()));
        assertEquals(
                "InvalidTopicException: Topic name is invalid: the empty string is not allowed",
                failure(admin.describeConfigs(List.of(new ConfigResource(ConfigResource.Type.TOPIC, "")))
                        .all()));
    }

    @Test
    void describeConfigsOfTheBroker() throws Exception {
        ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, "1");
        Config config = admin.describeConfigs(List.of(broker), new DescribeConfigsOptions().includeSynonyms(true))
                .all()
                .get()
                .get(broker);
        // Kafka 4.4's answers for these keys on a broker with the same settings.
        assertEquals(
                "log.retention.hours|168|DEFAULT_CONFIG|false|true|INT|[ConfigSynonym(name=log.retention.hours, "
                        + "value=168, source=DEFAULT_CONFIG)]",
                line(config.get("log.retention.hours")));
        assertEquals("log.retention.ms|null|DEFAULT_CONFIG|false|false|LONG|[]", line(config.get("log.retention.ms")));
        assertEquals(
                "log.segment.bytes|1073741824|DEFAULT_CONFIG|false|false|INT|[ConfigSynonym(name=log.segment.bytes, "
                        + "value=1073741824, source=DEFAULT_CONFIG)]",
                line(config.get("log.segment.bytes")));
        assertEquals(
                "min.insync.replicas|1|DYNAMIC_DEFAULT_BROKER_CONFIG|false|false|INT|[ConfigSynonym("
                        + "name=min.insync.replicas, value=1, source=DYNAMIC_DEFAULT_BROKER_CONFIG), ConfigSynonym("
                        + "name=min.insync.replicas, value=1, source=DEFAULT_CONFIG)]",
                line(config.get("min.insync.replicas")));
        ConfigResource cluster = new ConfigResource(ConfigResource.Type.BROKER, "");
        Config defaults = admin.describeConfigs(List.of(cluster), new DescribeConfigsOptions().includeSynonyms(true))
                .all()
                .get()
                .get(cluster);
        assertEquals(
                List.of("min.insync.replicas|1|DYNAMIC_DEFAULT_BROKER_CONFIG|false|false|INT|[ConfigSynonym("
                        + "name=min.insync.replicas, value=1, source=DYNAMIC_DEFAULT_BROKER_CONFIG)]"),
                defaults.entries().stream().map(ControlPlaneIT::line).toList());
    }

    @Test
    void configsAreAlteredIncrementally() throws Exception {
        admin.createTopics(List.of(new NewTopic("probe", 1, (short) 1).configs(Map.of("segment.ms", "100000"))))
                .all()
                .get();
        ConfigResource probe = new ConfigResource(ConfigResource.Type.TOPIC, "probe");
        admin.incrementalAlterConfigs(Map.of(
                        probe,
                        List.of(
                                new AlterConfigOp(new ConfigEntry("retention.ms", "5000"), AlterConfigOp.OpType.SET),
                                new AlterConfigOp(new ConfigEntry("segment.ms", null), AlterConfigOp.OpType.DELETE))))
                .all()
                .get();
        assertEquals(Map.of("retention.ms", "5000"), plane.controller().image().topicConfig("probe"));
        assertEquals(
                "InvalidConfigurationException: Unknown topic config name: foo.bar",
                failure(admin.incrementalAlterConfigs(Map.of(
                                probe,
                                List.of(new AlterConfigOp(new ConfigEntry("foo.bar", "x"), AlterConfigOp.OpType.SET))))
                        .all()));
        assertEquals(
                "InvalidConfigurationException: Can't APPEND to key retention.ms because its type is not LIST.",
                failure(admin.incrementalAlterConfigs(Map.of(
                                probe,
                                List.of(new AlterConfigOp(
                                        new ConfigEntry("retention.ms", "1"), AlterConfigOp.OpType.APPEND))))
                        .all()));
        assertEquals(
                "UnknownTopicOrPartitionException: The topic 'nope' does not exist.",
                failure(admin.incrementalAlterConfigs(Map.of(
                                new ConfigResource(ConfigResource.Type.TOPIC, "nope"),
                                List.of(new AlterConfigOp(
                                        new ConfigEntry("retention.ms", "1"), AlterConfigOp.OpType.SET))))
                        .all()));
        assertEquals(
                "InvalidRequestException: Default topic resources are not allowed.",
                failure(admin.incrementalAlterConfigs(Map.of(
                                new ConfigResource(ConfigResource.Type.TOPIC, ""),
                                List.of(new AlterConfigOp(
                                        new ConfigEntry("retention.ms", "1"), AlterConfigOp.OpType.SET))))
                        .all()));
    }

    @Test
    void describeClusterNamesThisBroker() throws Exception {
        DescribeClusterResult cluster = admin.describeCluster();
        assertEquals(ControlPlane.CLUSTER_ID, cluster.clusterId().get());
        assertEquals(1, cluster.controller().get().id());
        Collection<org.apache.kafka.common.Node> nodes = cluster.nodes().get();
        assertEquals(1, nodes.size());
        assertEquals(
                plane.bootstrapServers(),
                nodes.iterator().next().host() + ":" + nodes.iterator().next().port());
    }

    @Test
    void aConsumersMetadataAutoCreatesATopic() {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(Map.of(
                "bootstrap.servers",
                plane.bootstrapServers(),
                "key.deserializer",
                ByteArrayDeserializer.class,
                "value.deserializer",
                ByteArrayDeserializer.class))) {
            List<PartitionInfo> partitions = consumer.partitionsFor("auto.created", Duration.ofSeconds(20));
            assertEquals(1, partitions.size());
            assertEquals(1, partitions.getFirst().leader().id());
        }
        assertTrue(plane.controller().image().topic("auto.created").isPresent());
    }

    // Helpers.

    private List<String> describe(String topic) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        Config config = admin.describeConfigs(List.of(resource), new DescribeConfigsOptions().includeSynonyms(true))
                .all()
                .get()
                .get(resource);
        return config.entries().stream().map(ControlPlaneIT::line).sorted().toList();
    }

    private static String line(ConfigEntry e) {
        return e.name() + "|" + e.value() + "|" + e.source() + "|" + e.isSensitive() + "|" + e.isReadOnly() + "|"
                + e.type() + "|" + e.synonyms();
    }

    private static List<String> kafka(String file) throws IOException {
        try (InputStream in = ControlPlaneIT.class.getResourceAsStream("/kafka-4.4/" + file)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8)
                    .lines()
                    .sorted()
                    .toList();
        }
    }

    private static String failure(KafkaFuture<?> future) {
        ExecutionException failed = assertThrows(ExecutionException.class, future::get);
        assertInstanceOf(org.apache.kafka.common.errors.ApiException.class, failed.getCause());
        return failed.getCause().getClass().getSimpleName() + ": "
                + failed.getCause().getMessage();
    }
}
