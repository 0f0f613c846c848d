package io.krabka.kernel.broker;

import static io.krabka.kernel.broker.TableAuthorizer.ALICE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.controller.Controllers;
import io.krabka.kernel.controller.QuorumControllerTestTopics;
import io.krabka.kernel.group.GroupConfigDefaults;
import io.krabka.kernel.group.GroupConfigs;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.message.AlterConfigsRequestData;
import org.apache.kafka.common.message.AlterConfigsResponseData;
import org.apache.kafka.common.message.CreatePartitionsRequestData;
import org.apache.kafka.common.message.CreatePartitionsResponseData;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.CreateTopicsResponseData;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.message.DeleteTopicsResponseData;
import org.apache.kafka.common.message.DescribeConfigsRequestData;
import org.apache.kafka.common.message.DescribeConfigsResponseData;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData;
import org.apache.kafka.common.message.IncrementalAlterConfigsResponseData;
import org.apache.kafka.common.message.ListConfigResourcesRequestData;
import org.apache.kafka.common.message.ListConfigResourcesResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.resource.Resource;
import org.apache.kafka.common.resource.ResourceType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Topic and config administration with an authorizer, on a real controller, as Kafka's controller and
 * {@code KafkaApis} authorize it: CREATE, DELETE, ALTER, DESCRIBE_CONFIGS and ALTER_CONFIGS on the cluster, topic or
 * group, with Kafka's error codes and their placement.
 */
class AdminAuthorizationTest {

    @TempDir
    Path dir;

    private Controllers controllers;
    private Uuid secretId;
    private final TableAuthorizer authorizer = new TableAuthorizer();
    private AuthHelper auth;

    @BeforeEach
    void start() throws Exception {
        controllers = Controllers.formatAndStart(dir, Map.of());
        CreateTopicsRequestData create = new CreateTopicsRequestData();
        create.topics().add(QuorumControllerTestTopics.topic("orders", 1));
        create.topics().add(QuorumControllerTestTopics.topic("secret", 1));
        create.topics().add(QuorumControllerTestTopics.topic("visible", 1));
        secretId = controllers
                .controller()
                .createTopics(create)
                .get()
                .topics()
                .find("secret")
                .topicId();
        auth = new AuthHelper(Optional.of(authorizer));
    }

    @AfterEach
    void stop() throws Exception {
        controllers.close();
    }

    @Test
    void createTopicsNeedsCreateOnTheClusterOrTopicAndShowsConfigsOnlyWithDescribeConfigs() throws Exception {
        authorizer
                .allow(ALICE, AclOperation.CREATE, ResourceType.TOPIC, "a")
                .allow(ALICE, AclOperation.CREATE, ResourceType.TOPIC, "b")
                .allow(ALICE, AclOperation.DESCRIBE_CONFIGS, ResourceType.TOPIC, "a");
        CreateTopicsRequestData create = new CreateTopicsRequestData().setTimeoutMs(10_000);
        for (String name : List.of("c", "a", "b")) {
            create.topics().add(QuorumControllerTestTopics.topic(name, 2));
        }
        CreateTopicsResponseData response = Requests.callAs(
                ALICE, new CreateTopicsHandler(auth, controllers.controller()), ApiKeys.CREATE_TOPICS, create, 7);
        CreateTopicsResponseData.CreatableTopicResult a = response.topics().find("a");
        assertEquals(Errors.NONE.code(), a.errorCode());
        assertEquals(2, a.numPartitions());
        assertEquals(Errors.NONE.code(), a.topicConfigErrorCode());
        CreateTopicsResponseData.CreatableTopicResult b = response.topics().find("b");
        assertEquals(Errors.NONE.code(), b.errorCode(), "created");
        assertEquals(Errors.TOPIC_AUTHORIZATION_FAILED.code(), b.topicConfigErrorCode(), "its configs not shown");
        assertEquals(-1, b.numPartitions());
        CreateTopicsResponseData.CreatableTopicResult c = response.topics().find("c");
        assertEquals(Errors.TOPIC_AUTHORIZATION_FAILED.code(), c.errorCode());
        assertEquals("Authorization failed.", c.errorMessage());
        assertTrue(controllers.controller().image().topic("c").isEmpty());
        assertEquals("c", response.topics().stream().toList().getLast().name(), "refused after the others");

        authorizer.allow(ALICE, AclOperation.CREATE, ResourceType.CLUSTER, Resource.CLUSTER_NAME);
        CreateTopicsRequestData again = new CreateTopicsRequestData().setTimeoutMs(10_000);
        again.topics().add(QuorumControllerTestTopics.topic("c", 1));
        CreateTopicsResponseData created = Requests.callAs(
                ALICE, new CreateTopicsHandler(auth, controllers.controller()), ApiKeys.CREATE_TOPICS, again, 7);
        assertEquals(Errors.NONE.code(), created.topics().find("c").errorCode(), "CREATE on the cluster");
    }

    @Test
    void deleteTopicsRefusesWithoutDisclosingWhatMayNotBeDescribed() throws Exception {
        authorizer
                .allow(ALICE, AclOperation.DESCRIBE, ResourceType.TOPIC, "visible")
                .allow(ALICE, AclOperation.DESCRIBE, ResourceType.TOPIC, "orders")
                .allow(ALICE, AclOperation.DELETE, ResourceType.TOPIC, "orders")
                .allow(ALICE, AclOperation.DESCRIBE, ResourceType.TOPIC, "ghost");
        DeleteTopicsHandler handler =
                new DeleteTopicsHandler(auth, new DeleteTopicsHandler.Config(true), controllers.controller());
        DeleteTopicsRequestData delete = new DeleteTopicsRequestData().setTimeoutMs(10_000);
        for (String name : List.of("orders", "visible", "nowhere", "ghost")) {
            delete.topics().add(new DeleteTopicsRequestData.DeleteTopicState().setName(name));
        }
        delete.topics().add(new DeleteTopicsRequestData.DeleteTopicState().setTopicId(secretId));
        DeleteTopicsResponseData response = Requests.callAs(ALICE, handler, ApiKeys.DELETE_TOPICS, delete, 6);
        Map<String, Errors> byName = response.responses().stream()
                .filter(result -> result.name() != null)
                .collect(Collectors.toMap(
                        DeleteTopicsResponseData.DeletableTopicResult::name,
                        result -> Errors.forCode(result.errorCode())));
        assertEquals(
                Map.of(
                        "orders", Errors.NONE,
                        "visible", Errors.TOPIC_AUTHORIZATION_FAILED,
                        "nowhere", Errors.TOPIC_AUTHORIZATION_FAILED,
                        "ghost", Errors.UNKNOWN_TOPIC_OR_PARTITION),
                byName);
        DeleteTopicsResponseData.DeletableTopicResult byId = response.responses().stream()
                .filter(result -> secretId.equals(result.topicId()))
                .findFirst()
                .orElseThrow();
        assertEquals(Errors.TOPIC_AUTHORIZATION_FAILED.code(), byId.errorCode());
        assertNull(byId.name(), "a topic it may not describe keeps its name");
        assertTrue(controllers.controller().image().topic("secret").isPresent());
    }

    @Test
    void createPartitionsNeedsAlterOnTheTopic() throws Exception {
        authorizer.allow(ALICE, AclOperation.ALTER, ResourceType.TOPIC, "orders");
        CreatePartitionsRequestData create = new CreatePartitionsRequestData().setTimeoutMs(10_000);
        for (String name : List.of("orders", "secret")) {
            create.topics()
                    .add(new CreatePartitionsRequestData.CreatePartitionsTopic()
                            .setName(name)
                            .setCount(3)
                            .setAssignments(null));
        }
        CreatePartitionsResponseData response = Requests.callAs(
                ALICE,
                new CreatePartitionsHandler(auth, controllers.controller()),
                ApiKeys.CREATE_PARTITIONS,
                create,
                3);
        assertEquals(
                List.of("secret", "orders"),
                response.results().stream()
                        .map(CreatePartitionsResponseData.CreatePartitionsTopicResult::name)
                        .toList(),
                "the refused topics first, as Kafka's controller answers");
        assertEquals(
                Errors.TOPIC_AUTHORIZATION_FAILED.code(),
                response.results().get(0).errorCode());
        assertEquals(Errors.NONE.code(), response.results().get(1).errorCode());
        assertEquals(
                1,
                controllers
                        .controller()
                        .image()
                        .topic("secret")
                        .orElseThrow()
                        .partitions()
                        .size());
    }

    @Test
    void describeConfigsNeedsDescribeConfigsAndAnswersTheRefusedLast() throws Exception {
        authorizer.allow(ALICE, AclOperation.DESCRIBE_CONFIGS, ResourceType.TOPIC, "orders");
        DescribeConfigsRequestData describe = new DescribeConfigsRequestData();
        describe.resources()
                .add(new DescribeConfigsRequestData.DescribeConfigsResource()
                        .setResourceType(ConfigResource.Type.BROKER.id())
                        .setResourceName(String.valueOf(Controllers.NODE_ID)));
        describe.resources()
                .add(new DescribeConfigsRequestData.DescribeConfigsResource()
                        .setResourceType(ConfigResource.Type.GROUP.id())
                        .setResourceName("g1"));
        describe.resources()
                .add(new DescribeConfigsRequestData.DescribeConfigsResource()
                        .setResourceType(ConfigResource.Type.TOPIC.id())
                        .setResourceName("orders"));
        DescribeConfigsHandler handler = new DescribeConfigsHandler(
                auth,
                new DescribeConfigsHandler.Config(Controllers.NODE_ID, Map.of()),
                controllers.controller(),
                new GroupConfigs(GroupConfigDefaults.fromProps(Map.of())));
        DescribeConfigsResponseData response = Requests.callAs(ALICE, handler, ApiKeys.DESCRIBE_CONFIGS, describe, 4);
        assertEquals(
                List.of(Errors.NONE, Errors.CLUSTER_AUTHORIZATION_FAILED, Errors.GROUP_AUTHORIZATION_FAILED),
                response.results().stream()
                        .map(result -> Errors.forCode(result.errorCode()))
                        .toList());
        assertEquals("orders", response.results().getFirst().resourceName());
        assertTrue(response.results().get(1).configs().isEmpty());
    }

    @Test
    void alterConfigsRefuseEachResourceInItsPlace() throws Exception {
        authorizer.allow(ALICE, AclOperation.ALTER_CONFIGS, ResourceType.TOPIC, "orders");
        IncrementalAlterConfigsRequestData incremental = new IncrementalAlterConfigsRequestData();
        for (String topic : List.of("secret", "orders")) {
            IncrementalAlterConfigsRequestData.AlterableConfigCollection configs =
                    new IncrementalAlterConfigsRequestData.AlterableConfigCollection();
            configs.add(new IncrementalAlterConfigsRequestData.AlterableConfig()
                    .setName("retention.ms")
                    .setValue("1000")
                    .setConfigOperation((byte) 0));
            incremental
                    .resources()
                    .add(new IncrementalAlterConfigsRequestData.AlterConfigsResource()
                            .setResourceType(ConfigResource.Type.TOPIC.id())
                            .setResourceName(topic)
                            .setConfigs(configs));
        }
        incremental
                .resources()
                .add(new IncrementalAlterConfigsRequestData.AlterConfigsResource()
                        .setResourceType(ConfigResource.Type.BROKER_LOGGER.id())
                        .setResourceName(String.valueOf(Controllers.NODE_ID)));
        IncrementalAlterConfigsResponseData response = Requests.callAs(
                ALICE,
                new IncrementalAlterConfigsHandler(auth, controllers.controller()),
                ApiKeys.INCREMENTAL_ALTER_CONFIGS,
                incremental,
                1);
        assertEquals(
                List.of(Errors.TOPIC_AUTHORIZATION_FAILED, Errors.NONE, Errors.CLUSTER_AUTHORIZATION_FAILED),
                response.responses().stream()
                        .map(result -> Errors.forCode(result.errorCode()))
                        .toList());
        assertEquals(
                "1000", controllers.controller().image().topicConfig("orders").get("retention.ms"));
        assertNull(controllers.controller().image().topicConfig("secret").get("retention.ms"));

        AlterConfigsRequestData legacy = new AlterConfigsRequestData();
        legacy.resources()
                .add(new AlterConfigsRequestData.AlterConfigsResource()
                        .setResourceType(ConfigResource.Type.BROKER.id())
                        .setResourceName(""));
        legacy.resources()
                .add(new AlterConfigsRequestData.AlterConfigsResource()
                        .setResourceType(ConfigResource.Type.GROUP.id())
                        .setResourceName("g1"));
        AlterConfigsResponseData altered = Requests.callAs(
                ALICE, new AlterConfigsHandler(auth, controllers.controller()), ApiKeys.ALTER_CONFIGS, legacy, 2);
        assertEquals(
                List.of(Errors.CLUSTER_AUTHORIZATION_FAILED, Errors.GROUP_AUTHORIZATION_FAILED),
                altered.responses().stream()
                        .map(result -> Errors.forCode(result.errorCode()))
                        .toList());
    }

    @Test
    void listConfigResourcesNeedsDescribeConfigsOnTheCluster() throws Exception {
        ListConfigResourcesHandler handler =
                new ListConfigResourcesHandler(auth, Controllers.NODE_ID, controllers.controller());
        ListConfigResourcesResponseData refused =
                Requests.callAs(ALICE, handler, ApiKeys.LIST_CONFIG_RESOURCES, new ListConfigResourcesRequestData(), 1);
        assertEquals(Errors.CLUSTER_AUTHORIZATION_FAILED.code(), refused.errorCode());
        authorizer.allow(ALICE, AclOperation.DESCRIBE_CONFIGS, ResourceType.CLUSTER, Resource.CLUSTER_NAME);
        ListConfigResourcesResponseData listed =
                Requests.callAs(ALICE, handler, ApiKeys.LIST_CONFIG_RESOURCES, new ListConfigResourcesRequestData(), 1);
        assertEquals(Errors.NONE.code(), listed.errorCode());
    }
}
