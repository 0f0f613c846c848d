package io.krabka.kernel.controller;

import static io.krabka.kernel.controller.ConfigRequests.legacy;
import static io.krabka.kernel.controller.ConfigRequests.op;
import static io.krabka.kernel.controller.ConfigRequests.resource;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.log.LogDirFailureChannel;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.MetadataPublisher;
import io.krabka.kernel.metadata.PartitionRegistration;
import io.krabka.kernel.metadata.TopicImage;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import org.apache.kafka.common.message.AlterConfigsRequestData;
import org.apache.kafka.common.message.CreatePartitionsRequestData;
import org.apache.kafka.common.message.CreatePartitionsRequestData.CreatePartitionsTopic;
import org.apache.kafka.common.message.CreatePartitionsResponseData.CreatePartitionsTopicResult;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableReplicaAssignment;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableTopic;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableTopicConfig;
import org.apache.kafka.common.message.CreateTopicsResponseData;
import org.apache.kafka.common.message.CreateTopicsResponseData.CreatableTopicResult;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.message.DeleteTopicsRequestData.DeleteTopicState;
import org.apache.kafka.common.message.DeleteTopicsResponseData.DeletableTopicResult;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData;
import org.apache.kafka.common.message.IncrementalAlterConfigsResponseData.AlterConfigsResourceResponse;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The controller on a formatted directory: each operation's answer and image, and what a restart sees. */
class QuorumControllerTest {

    @TempDir
    Path dir;

    private Controllers controllers;

    @BeforeEach
    void start() throws Exception {
        controllers = Controllers.formatAndStart(dir, Map.of());
    }

    @AfterEach
    void stop() throws Exception {
        controllers.close();
    }

    @Test
    void aNewLogStartsWithTheFormattedFeaturesAndTheClusterMinIsr() {
        MetadataImage image = controllers.controller().image();
        assertEquals(
                Map.of(
                        "metadata.version",
                        (short) 33,
                        "eligible.leader.replicas.version",
                        (short) 1,
                        "group.version",
                        (short) 1,
                        "share.version",
                        (short) 2,
                        "streams.version",
                        (short) 1,
                        "transaction.version",
                        (short) 2),
                image.features());
        assertEquals(Map.of("min.insync.replicas", "1"), image.brokerConfigs());
        assertEquals(6, image.offset());
        assertTrue(image.topics().isEmpty());
    }

    @Test
    void createTopicsRecordsTopicsPartitionsAndConfigs() throws Exception {
        CreateTopicsResponseData response = create(
                topic("orders", 3, 1, Map.of("retention.ms", "1000", "cleanup.policy", "compact")),
                topic("events", -1, -1, Map.of()));
        CreatableTopicResult orders = response.topics().find("orders");
        assertEquals(Errors.NONE.code(), orders.errorCode());
        assertEquals(3, orders.numPartitions());
        assertEquals(1, orders.replicationFactor());
        assertEquals("1000", config(orders, "retention.ms").value());
        assertEquals(1, config(orders, "retention.ms").configSource());
        assertEquals("604800000", config(orders, "segment.ms").value());
        assertEquals(5, config(orders, "segment.ms").configSource());
        assertEquals(3, config(orders, "min.insync.replicas").configSource(), "the cluster's dynamic default");
        List<String> names = orders.configs().stream().map(c -> c.name()).toList();
        assertEquals(names.stream().sorted().toList(), names);

        MetadataImage image = controllers.controller().image();
        TopicImage topic = image.topic("orders").orElseThrow();
        assertEquals(orders.topicId().toString(), topic.id().toString());
        PartitionRegistration one = new PartitionRegistration(List.of(1), List.of(1), 1, 0, 0);
        assertEquals(new TreeMap<>(Map.of(0, one, 1, one, 2, one)), topic.partitions());
        assertEquals(Map.of("retention.ms", "1000", "cleanup.policy", "compact"), image.topicConfig("orders"));
        assertEquals(1, image.topic("events").orElseThrow().partitions().size(), "num.partitions");
        assertEquals(Errors.NONE.code(), response.topics().find("events").errorCode());
    }

    @Test
    void createTopicsRefusesAsKafkaDoes() throws Exception {
        create(topic("a.b", 1, 1, Map.of()), topic("taken", 1, 1, Map.of()));
        CreateTopicsRequestData request = new CreateTopicsRequestData();
        request.topics().add(topic("dup", 1, 1, Map.of()));
        request.topics().add(topic("dup", 2, 1, Map.of()));
        for (CreatableTopic topic : List.of(
                topic("bad name", 1, 1, Map.of()),
                topic("a_b", 1, 1, Map.of()),
                topic("taken", 1, 1, Map.of()),
                topic("rf3", 1, 3, Map.of()),
                topic("rf0", 1, 0, Map.of()),
                topic("p0", 0, 1, Map.of()),
                topic("cfg", 1, 1, Map.of("retention.ms", "abc")),
                topic("cfg2", 1, 1, Map.of("no.such.config", "1")),
                topic("x".repeat(250), 1, 1, Map.of()),
                topic("__cluster_metadata", 1, 1, Map.of()),
                assigned("gap", Map.of(0, List.of(1), 2, List.of(1))),
                assigned("broker7", Map.of(0, List.of(7))),
                assigned("empty", Map.of(0, List.of())),
                assigned("twice", Map.of(0, List.of(1, 1))))) {
            request.topics().add(topic);
        }
        CreatableTopic assignedWithCount =
                assigned("count", Map.of(0, List.of(1))).setNumPartitions(2);
        request.topics().add(assignedWithCount);
        Map<String, String> errors = new TreeMap<>();
        controllers
                .controller()
                .createTopics(request)
                .get()
                .topics()
                .forEach(result -> errors.put(
                        result.name().length() > 20 ? "long" : result.name(),
                        Errors.forCode(result.errorCode()).name() + ": " + result.errorMessage()));

        assertEquals("INVALID_REQUEST: Duplicate topic name.", errors.get("dup"));
        assertEquals(
                "INVALID_TOPIC_EXCEPTION: Topic name is invalid: 'bad name' contains one or more characters other "
                        + "than ASCII alphanumerics, '.', '_' and '-'",
                errors.get("bad name"));
        assertEquals("INVALID_TOPIC_EXCEPTION: Topic 'a_b' collides with existing topic: a.b", errors.get("a_b"));
        assertEquals("TOPIC_ALREADY_EXISTS: Topic 'taken' already exists.", errors.get("taken"));
        assertEquals(
                "INVALID_REPLICATION_FACTOR: Unable to replicate the partition 3 time(s): The target replication "
                        + "factor of 3 cannot be reached because only 1 broker(s) are registered or some brokers have all their "
                        + "log directories cordoned.",
                errors.get("rf3"));
        assertEquals(
                "INVALID_REPLICATION_FACTOR: Replication factor must be larger than 0, or -1 to use the default "
                        + "value.",
                errors.get("rf0"));
        assertEquals(
                "INVALID_PARTITIONS: Number of partitions was set to an invalid non-positive value.", errors.get("p0"));
        assertTrue(
                errors.get("cfg").startsWith("INVALID_CONFIG: ")
                        && errors.get("cfg").contains("retention.ms"),
                errors.get("cfg"));
        assertEquals("INVALID_CONFIG: Unknown topic config name: no.such.config", errors.get("cfg2"));
        assertTrue(errors.get("long").startsWith("INVALID_TOPIC_EXCEPTION: Topic name is invalid: the length of"));
        assertTrue(errors.get("__cluster_metadata").startsWith("INVALID_TOPIC_EXCEPTION: "));
        assertEquals(
                "INVALID_REPLICA_ASSIGNMENT: partitions should be a consecutive 0-based integer sequence",
                errors.get("gap"));
        assertEquals(
                "INVALID_REPLICA_ASSIGNMENT: The manual partition assignment includes broker 7, but no such broker "
                        + "is registered.",
                errors.get("broker7"));
        assertEquals(
                "INVALID_REPLICA_ASSIGNMENT: The manual partition assignment includes an empty replica list.",
                errors.get("empty"));
        assertEquals(
                "INVALID_REPLICA_ASSIGNMENT: The manual partition assignment includes the broker 1 more than once.",
                errors.get("twice"));
        assertEquals(
                "INVALID_REQUEST: A manual partition assignment was specified, but numPartitions was not set to -1.",
                errors.get("count"));
        assertEquals(
                Set.of("a.b", "taken"),
                controllers.controller().image().topics().keySet());
    }

    @Test
    void validateOnlyChangesNothing() throws Exception {
        long offset = controllers.controller().image().offset();
        CreateTopicsRequestData request = new CreateTopicsRequestData().setValidateOnly(true);
        request.topics().add(topic("dry", 2, 1, Map.of("retention.ms", "5")));
        CreatableTopicResult result =
                controllers.controller().createTopics(request).get().topics().find("dry");
        assertEquals(Errors.NONE.code(), result.errorCode());
        assertEquals(2, result.numPartitions());
        assertEquals(offset, controllers.controller().image().offset());
        assertTrue(controllers.controller().image().topics().isEmpty());
    }

    @Test
    void anOperationOfMoreThanTenThousandRecordsIsRefusedWhole() throws Exception {
        CreateTopicsRequestData tooLarge = new CreateTopicsRequestData();
        tooLarge.topics().add(topic("huge", QuorumController.MAX_RECORDS_PER_USER_OP, 1, Map.of()));
        java.util.concurrent.ExecutionException refused = assertThrows(
                java.util.concurrent.ExecutionException.class,
                () -> controllers.controller().createTopics(tooLarge).get());
        assertEquals(
                "Unable to perform excessively large batch operation.",
                refused.getCause().getMessage());
        assertTrue(controllers.controller().image().topics().isEmpty());

        CreateTopicsRequestData largest = new CreateTopicsRequestData();
        largest.topics().add(topic("large", QuorumController.MAX_RECORDS_PER_USER_OP - 1, 1, Map.of()));
        create(largest.topics().iterator().next().duplicate());
        assertEquals(
                QuorumController.MAX_RECORDS_PER_USER_OP - 1,
                controllers
                        .restart()
                        .image()
                        .topic("large")
                        .orElseThrow()
                        .partitions()
                        .size());
    }

    @Test
    void manualAssignmentsCreateTheirPartitions() throws Exception {
        create(assigned("manual", Map.of(0, List.of(1), 1, List.of(1))));
        assertEquals(
                2,
                controllers
                        .controller()
                        .image()
                        .topic("manual")
                        .orElseThrow()
                        .partitions()
                        .size());
    }

    @Test
    void createPartitionsOnlyIncreases() throws Exception {
        create(topic("grow", 2, 1, Map.of()));
        Map<String, String> errors = new TreeMap<>();
        for (CreatePartitionsTopic topic : List.of(grow("grow", 2), grow("grow", 1), grow("nope", 3))) {
            CreatePartitionsRequestData request = new CreatePartitionsRequestData();
            request.topics().add(topic);
            CreatePartitionsTopicResult result =
                    controllers.controller().createPartitions(request).get().getFirst();
            errors.put(
                    topic.name() + topic.count(),
                    Errors.forCode(result.errorCode()).name() + ": " + result.errorMessage());
        }
        assertEquals("INVALID_PARTITIONS: Topic already has 2 partition(s).", errors.get("grow2"));
        assertEquals(
                "INVALID_PARTITIONS: The topic grow currently has 2 partition(s); 1 would not be an increase.",
                errors.get("grow1"));
        assertEquals("UNKNOWN_TOPIC_OR_PARTITION: null", errors.get("nope3"));

        CreatePartitionsRequestData badAssignment = new CreatePartitionsRequestData();
        badAssignment
                .topics()
                .add(grow("grow", 4)
                        .setAssignments(List.of(new CreatePartitionsRequestData.CreatePartitionsAssignment()
                                .setBrokerIds(List.of(1)))));
        assertEquals(
                "Attempted to add 2 additional partition(s), but only 1 assignment(s) were specified.",
                controllers
                        .controller()
                        .createPartitions(badAssignment)
                        .get()
                        .getFirst()
                        .errorMessage());

        CreatePartitionsRequestData dry = new CreatePartitionsRequestData().setValidateOnly(true);
        dry.topics().add(grow("grow", 9));
        assertEquals(
                Errors.NONE.code(),
                controllers.controller().createPartitions(dry).get().getFirst().errorCode());
        assertEquals(
                2,
                controllers
                        .controller()
                        .image()
                        .topic("grow")
                        .orElseThrow()
                        .partitions()
                        .size());

        CreatePartitionsRequestData ok = new CreatePartitionsRequestData();
        ok.topics().add(grow("grow", 5));
        assertEquals(
                Errors.NONE.code(),
                controllers.controller().createPartitions(ok).get().getFirst().errorCode());
        assertEquals(
                Set.of(0, 1, 2, 3, 4),
                controllers
                        .controller()
                        .image()
                        .topic("grow")
                        .orElseThrow()
                        .partitions()
                        .keySet());
    }

    @Test
    void deleteTopicsByNameAndIdWithKafkasErrors() throws Exception {
        CreateTopicsResponseData created = create(
                topic("one", 1, 1, Map.of("retention.ms", "5")),
                topic("two", 1, 1, Map.of()),
                topic("three", 1, 1, Map.of()));
        org.apache.kafka.common.Uuid twoId = created.topics().find("two").topicId();
        org.apache.kafka.common.Uuid threeId = created.topics().find("three").topicId();
        DeleteTopicsRequestData request = new DeleteTopicsRequestData();
        request.topics().add(new DeleteTopicState().setName("one"));
        request.topics().add(new DeleteTopicState().setTopicId(twoId));
        request.topics().add(new DeleteTopicState().setName("nope"));
        request.topics().add(new DeleteTopicState().setTopicId(org.apache.kafka.common.Uuid.randomUuid()));
        request.topics().add(new DeleteTopicState());
        request.topics().add(new DeleteTopicState().setName("three").setTopicId(threeId));
        List<DeletableTopicResult> results = new ArrayList<>(
                controllers.controller().deleteTopics(request).get().responses());
        Map<String, String> byName = results.stream()
                .collect(Collectors.toMap(
                        r -> r.name() == null
                                ? (r.topicId().equals(org.apache.kafka.common.Uuid.ZERO_UUID)
                                        ? "none"
                                        : "id:" + r.topicId())
                                : r.name(),
                        r -> Errors.forCode(r.errorCode()).name() + ": " + r.errorMessage()));
        assertEquals("NONE: null", byName.get("one"));
        assertEquals("NONE: null", byName.get("two"), "a topic deleted by id is reported with its name");
        assertEquals("UNKNOWN_TOPIC_OR_PARTITION: This server does not host this topic-partition.", byName.get("nope"));
        assertEquals("INVALID_REQUEST: Neither topic name nor id were specified.", byName.get("none"));
        assertEquals("INVALID_REQUEST: You may not specify both topic name and topic id.", byName.get("three"));
        assertTrue(
                byName.entrySet().stream()
                        .anyMatch(e -> e.getKey().startsWith("id:")
                                && e.getValue().equals("UNKNOWN_TOPIC_ID: This server does not host this topic ID.")),
                byName.toString());
        assertEquals(Set.of("three"), controllers.controller().image().topics().keySet());
        assertFalse(controllers.controller().image().topicConfigs().containsKey("one"), "configs go with the topic");

        DeleteTopicsRequestData legacy = new DeleteTopicsRequestData().setTopicNames(List.of("three", "three"));
        assertEquals(
                "Duplicate topic name.",
                controllers
                        .controller()
                        .deleteTopics(legacy)
                        .get()
                        .responses()
                        .find("three")
                        .errorMessage());
    }

    @Test
    void incrementalAndLegacyAlterConfigs() throws Exception {
        create(topic("conf", 1, 1, Map.of("retention.ms", "5", "segment.ms", "100000")));
        Map<String, String> errors = new TreeMap<>();
        IncrementalAlterConfigsRequestData request = new IncrementalAlterConfigsRequestData();
        request.resources()
                .add(resource(
                        (byte) 2,
                        "conf",
                        op("retention.ms", "7", 0),
                        op("segment.ms", null, 1),
                        op("cleanup.policy", "compact", 2)));
        request.resources().add(resource((byte) 2, "nope", op("retention.ms", "1", 0)));
        request.resources().add(resource((byte) 2, "", op("retention.ms", "1", 0)));
        request.resources().add(resource((byte) 2, "bad name", op("retention.ms", "1", 0)));
        request.resources().add(resource((byte) 2, "conf2", op("retention.ms", "1", 2)));
        request.resources().add(resource((byte) 4, "", op("log.retention.ms", "1", 0)));
        for (AlterConfigsResourceResponse response :
                controllers.controller().incrementalAlterConfigs(request).get().responses()) {
            errors.put(
                    response.resourceType() + ":" + response.resourceName(),
                    Errors.forCode(response.errorCode()).name() + ": " + response.errorMessage());
        }
        assertEquals("NONE: null", errors.get("2:conf"));
        assertEquals("UNKNOWN_TOPIC_OR_PARTITION: The topic 'nope' does not exist.", errors.get("2:nope"));
        assertEquals("INVALID_REQUEST: Default topic resources are not allowed.", errors.get("2:"));
        assertTrue(errors.get("2:bad name").startsWith("INVALID_TOPIC_EXCEPTION: Topic name is invalid"));
        assertEquals(
                "INVALID_REQUEST: Krabka does not support configs of resource type BROKER",
                errors.get("4:"),
                "broker configs need the broker's validator");
        assertEquals(
                Map.of("retention.ms", "7", "cleanup.policy", "delete,compact"),
                controllers.controller().image().topicConfig("conf"));

        create(topic("conf2", 1, 1, Map.of()));
        IncrementalAlterConfigsRequestData wrongType = new IncrementalAlterConfigsRequestData();
        wrongType.resources().add(resource((byte) 2, "conf2", op("retention.ms", "1", 2)));
        assertEquals(
                "Can't APPEND to key retention.ms because its type is not LIST.",
                controllers
                        .controller()
                        .incrementalAlterConfigs(wrongType)
                        .get()
                        .responses()
                        .getFirst()
                        .errorMessage());
        IncrementalAlterConfigsRequestData unknown = new IncrementalAlterConfigsRequestData();
        unknown.resources().add(resource((byte) 2, "conf2", op("foo.bar", "1", 0)));
        assertEquals(
                "Unknown topic config name: foo.bar",
                controllers
                        .controller()
                        .incrementalAlterConfigs(unknown)
                        .get()
                        .responses()
                        .getFirst()
                        .errorMessage());

        AlterConfigsRequestData legacy = legacy((byte) 2, "conf", Map.of("max.message.bytes", "2000"));
        assertEquals(
                Errors.NONE.code(),
                controllers
                        .controller()
                        .legacyAlterConfigs(legacy)
                        .get()
                        .responses()
                        .getFirst()
                        .errorCode());
        assertEquals(
                Map.of("max.message.bytes", "2000"),
                controllers.controller().image().topicConfig("conf"),
                "AlterConfigs replaces the whole set");
    }

    @Test
    void producerIdsComeInBlocksOfAThousand() throws Exception {
        assertEquals(
                new ProducerIdsBlock(1, 0, 1000),
                controllers.controller().allocateProducerIds(1).get());
        assertEquals(
                new ProducerIdsBlock(1, 1000, 1000),
                controllers.controller().allocateProducerIds(1).get());
        assertEquals(2000, controllers.controller().image().nextProducerId());
        assertEquals(
                new ProducerIdsBlock(1, 2000, 1000),
                controllers.restart().allocateProducerIds(1).get(),
                "a restart never gives a block twice");
    }

    @Test
    void aRestartSeesEverythingCommitted() throws Exception {
        create(topic("kept", 2, 1, Map.of("retention.ms", "5")), topic("gone", 1, 1, Map.of()));
        CreatePartitionsRequestData grow = new CreatePartitionsRequestData();
        grow.topics().add(grow("kept", 4));
        controllers.controller().createPartitions(grow).get();
        DeleteTopicsRequestData delete = new DeleteTopicsRequestData().setTopicNames(List.of("gone"));
        controllers.controller().deleteTopics(delete).get();
        IncrementalAlterConfigsRequestData alter = new IncrementalAlterConfigsRequestData();
        alter.resources().add(resource((byte) 2, "kept", op("segment.bytes", "2000000", 0)));
        controllers.controller().incrementalAlterConfigs(alter).get();
        controllers.controller().allocateProducerIds(1).get();
        MetadataImage before = controllers.controller().image();

        MetadataImage after = controllers.restart().image();
        assertEquals(before, after);
        assertEquals(4, after.topic("kept").orElseThrow().partitions().size());
        assertEquals(Map.of("retention.ms", "5", "segment.bytes", "2000000"), after.topicConfig("kept"));
        // A second restart appends nothing (the bootstrap is written once) and sees the same.
        assertEquals(before, controllers.restart().image());
    }

    @Test
    void aTornTailIsDroppedAtRestartAndTheCommittedWritesKept() throws Exception {
        create(topic("kept", 1, 1, Map.of()));
        MetadataImage before = controllers.controller().image();
        controllers.controller().close();
        Path segment = dir.resolve("__cluster_metadata-0").resolve("00000000000000000000.log");
        // Half a batch: what a crash in the middle of an append leaves.
        byte[] whole = Files.readAllBytes(segment);
        Files.write(
                segment,
                java.util.Arrays.copyOfRange(whole, whole.length - 40, whole.length),
                java.nio.file.StandardOpenOption.APPEND);

        assertEquals(before, controllers.restart().image());
        create(topic("after", 1, 1, Map.of()));
        assertEquals(
                Set.of("kept", "after"), controllers.restart().image().topics().keySet());
    }

    @Test
    void concurrentWritesAreSerializedAndAllKept() throws Exception {
        List<java.util.concurrent.CompletableFuture<CreateTopicsResponseData>> futures = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int thread = t;
            threads.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; i < 25; i++) {
                    CreateTopicsRequestData request = new CreateTopicsRequestData();
                    request.topics().add(topic("t" + thread + "-" + i, 2, 1, Map.of()));
                    synchronized (futures) {
                        futures.add(controllers.controller().createTopics(request));
                    }
                }
            }));
        }
        for (Thread thread : threads) {
            thread.join();
        }
        Set<String> ids = new java.util.HashSet<>();
        for (var future : futures) {
            CreatableTopicResult result = future.get().topics().iterator().next();
            assertEquals(Errors.NONE.code(), result.errorCode());
            ids.add(result.topicId().toString());
        }
        assertEquals(100, ids.size(), "every topic got its own id");
        MetadataImage image = controllers.controller().image();
        assertEquals(100, image.topics().size());
        assertEquals(image, controllers.restart().image());
    }

    @Test
    void publishersSeeEveryImageInOrderBeforeTheWriteCompletes() throws Exception {
        List<String> seen = new ArrayList<>();
        controllers.controller().register(new MetadataPublisher() {
            @Override
            public String name() {
                return "recorder";
            }

            @Override
            public void onMetadataUpdate(MetadataImage previous, MetadataImage current) {
                seen.add(previous.offset() + "->" + current.offset() + " "
                        + current.topics().keySet());
            }
        });
        assertEquals(List.of("-1->6 []"), seen);
        create(topic("p1", 1, 1, Map.of()));
        assertEquals(2, seen.size(), "the future completed after the publisher ran");
        assertEquals("6->8 [p1]", seen.get(1));
    }

    @Test
    void aPublisherMayRegisterAnotherAsItRuns() throws Exception {
        List<String> seen = new ArrayList<>();
        MetadataPublisher second = publisher("second", seen);
        controllers.controller().register(new MetadataPublisher() {
            @Override
            public String name() {
                return "first";
            }

            @Override
            public void onMetadataUpdate(MetadataImage previous, MetadataImage current) {
                seen.add("first " + current.topics().keySet());
                if (current.topic("go").isPresent() && seen.stream().noneMatch(s -> s.startsWith("second"))) {
                    controllers.controller().register(second);
                }
            }
        });
        create(topic("go", 1, 1, Map.of()));
        create(topic("again", 1, 1, Map.of()));
        assertEquals(
                List.of("first []", "first [go]", "second [go]", "first [again, go]", "second [again, go]"),
                seen.stream().map(s -> s.replace("[go, again]", "[again, go]")).toList());
    }

    private static MetadataPublisher publisher(String name, List<String> seen) {
        return new MetadataPublisher() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public void onMetadataUpdate(MetadataImage previous, MetadataImage current) {
                seen.add(name + " " + current.topics().keySet());
            }
        };
    }

    @Test
    void anUnformattedDirectoryIsRefused() throws Exception {
        Path empty = Files.createDirectories(dir.resolve("unformatted"));
        ControllerConfig config =
                new ControllerConfig(1, empty, Controllers.DIRECTORY_ID, 1, (short) 1, false, Map.of());
        io.krabka.kernel.scheduler.KafkaScheduler scheduler =
                new io.krabka.kernel.scheduler.KafkaScheduler(1, "unformatted-");
        try {
            assertThrows(
                    NoSuchFileException.class,
                    () -> QuorumController.start(
                            config, scheduler, java.time.Clock.systemUTC(), new LogDirFailureChannel()));
        } finally {
            scheduler.shutdown();
        }
    }

    // Helpers.

    private CreateTopicsResponseData create(CreatableTopic... topics) throws Exception {
        CreateTopicsRequestData request = new CreateTopicsRequestData();
        for (CreatableTopic topic : topics) {
            request.topics().add(topic);
        }
        CreateTopicsResponseData response =
                controllers.controller().createTopics(request).get();
        response.topics()
                .forEach(result -> assertEquals(Errors.NONE.code(), result.errorCode(), result.errorMessage()));
        return response;
    }

    private static CreateTopicsResponseData.CreatableTopicConfigs config(CreatableTopicResult result, String name) {
        return result.configs().stream()
                .filter(config -> config.name().equals(name))
                .findFirst()
                .orElseThrow();
    }

    static CreatableTopic topic(String name, int partitions, int replicationFactor, Map<String, String> configs) {
        CreatableTopic topic = new CreatableTopic()
                .setName(name)
                .setNumPartitions(partitions)
                .setReplicationFactor((short) replicationFactor);
        configs.forEach((key, value) ->
                topic.configs().add(new CreatableTopicConfig().setName(key).setValue(value)));
        return topic;
    }

    private static CreatableTopic assigned(String name, Map<Integer, List<Integer>> assignments) {
        CreatableTopic topic =
                new CreatableTopic().setName(name).setNumPartitions(-1).setReplicationFactor((short) -1);
        assignments.forEach((partition, brokers) -> topic.assignments()
                .add(new CreatableReplicaAssignment()
                        .setPartitionIndex(partition)
                        .setBrokerIds(brokers)));
        return topic;
    }

    private static CreatePartitionsTopic grow(String name, int count) {
        return new CreatePartitionsTopic().setName(name).setCount(count).setAssignments(null);
    }
}
