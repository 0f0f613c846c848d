package io.krabka.kernel.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.controller.Controllers;
import io.krabka.kernel.controller.QuorumController;
import io.krabka.kernel.controller.QuorumControllerTestTopics;
import io.krabka.kernel.group.GroupConfigDefaults;
import io.krabka.kernel.group.GroupConfigs;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.clients.admin.EndpointType;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.TopicDeletionDisabledException;
import org.apache.kafka.common.message.AlterConfigsRequestData;
import org.apache.kafka.common.message.AlterConfigsResponseData;
import org.apache.kafka.common.message.CreatePartitionsRequestData;
import org.apache.kafka.common.message.CreatePartitionsResponseData;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.CreateTopicsResponseData;
import org.apache.kafka.common.message.CreateTopicsResponseData.CreatableTopicResult;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.message.DeleteTopicsRequestData.DeleteTopicState;
import org.apache.kafka.common.message.DeleteTopicsResponseData;
import org.apache.kafka.common.message.DescribeClusterRequestData;
import org.apache.kafka.common.message.DescribeClusterResponseData;
import org.apache.kafka.common.message.DescribeConfigsRequestData;
import org.apache.kafka.common.message.DescribeConfigsRequestData.DescribeConfigsResource;
import org.apache.kafka.common.message.DescribeConfigsResponseData;
import org.apache.kafka.common.message.DescribeConfigsResponseData.DescribeConfigsResult;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData;
import org.apache.kafka.common.message.IncrementalAlterConfigsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AlterConfigsRequest;
import org.apache.kafka.common.requests.CreatePartitionsRequest;
import org.apache.kafka.common.requests.CreateTopicsRequest;
import org.apache.kafka.common.requests.DeleteTopicsRequest;
import org.apache.kafka.common.requests.DescribeClusterRequest;
import org.apache.kafka.common.requests.DescribeConfigsRequest;
import org.apache.kafka.common.requests.IncrementalAlterConfigsRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The control-plane handlers at every version Kafka 4.4 supports: each answer encodes at the request's version and
 * reads back with the fields that version has.
 */
class HandlerVersionsTest {

    private static final BrokerIdentity IDENTITY =
            new BrokerIdentity(1, "kUtTVxF2S8GcqgGq3ymNbA", "127.0.0.1", 9092, Optional.empty());

    @TempDir
    Path dir;

    private Controllers controllers;
    private QuorumController controller;

    @BeforeEach
    void start() throws Exception {
        controllers = Controllers.formatAndStart(dir, Map.of());
        controller = controllers.controller();
    }

    @AfterEach
    void stop() throws Exception {
        controllers.close();
    }

    @Test
    void createAndDeleteTopicsAtEveryVersion() throws Exception {
        CreateTopicsHandler create = new CreateTopicsHandler(AuthHelper.NONE, controller);
        DeleteTopicsHandler delete =
                new DeleteTopicsHandler(AuthHelper.NONE, new DeleteTopicsHandler.Config(true), controller);
        for (short version = ApiKeys.CREATE_TOPICS.oldestVersion(); version <= create.latestVersion(); version++) {
            CreateTopicsRequestData data = new CreateTopicsRequestData().setTimeoutMs(1000);
            data.topics().add(QuorumControllerTestTopics.topic("t" + version, 2));
            CreateTopicsResponseData response =
                    Requests.call(create, new CreateTopicsRequest.Builder(data).build(version));
            CreatableTopicResult result = response.topics().find("t" + version);
            assertEquals(Errors.NONE.code(), result.errorCode(), "v" + version);
            assertEquals(version >= 5 ? 2 : -1, result.numPartitions(), "v" + version);
            assertEquals(version >= 5, !result.configs().isEmpty(), "v" + version);
            assertEquals(version >= 7, !result.topicId().equals(Uuid.ZERO_UUID), "v" + version);
        }
        for (short version = ApiKeys.DELETE_TOPICS.oldestVersion(); version <= delete.latestVersion(); version++) {
            String name = "t" + (version + 1);
            DeleteTopicsRequestData data = new DeleteTopicsRequestData().setTimeoutMs(1000);
            if (version >= 6) {
                data.topics().add(new DeleteTopicState().setName(name));
            } else {
                data.setTopicNames(List.of(name));
            }
            DeleteTopicsResponseData response =
                    Requests.call(delete, new DeleteTopicsRequest.Builder(data).build(version));
            assertEquals(Errors.NONE.code(), response.responses().find(name).errorCode(), "v" + version);
        }
        assertEquals(Set.of(), controller.image().topics().keySet(), "every topic created was deleted");
    }

    @Test
    void disabledDeletionIsRefusedAsKafkaRefusesIt() {
        DeleteTopicsHandler delete =
                new DeleteTopicsHandler(AuthHelper.NONE, new DeleteTopicsHandler.Config(false), controller);
        DeleteTopicsRequestData data = new DeleteTopicsRequestData().setTopicNames(List.of("any"));
        assertEquals(
                "Topic deletion is disabled.",
                assertThrows(
                                InvalidRequestException.class,
                                () -> Requests.call(delete, new DeleteTopicsRequest.Builder(data).build((short) 2)))
                        .getMessage());
        assertThrows(
                TopicDeletionDisabledException.class,
                () -> Requests.call(delete, new DeleteTopicsRequest.Builder(data).build((short) 3)));
    }

    @Test
    void configsAtEveryVersion() throws Exception {
        CreateTopicsRequestData create = new CreateTopicsRequestData();
        create.topics().add(QuorumControllerTestTopics.topic("conf", 1));
        controller.createTopics(create).get();
        DescribeConfigsHandler describe = new DescribeConfigsHandler(
                AuthHelper.NONE,
                new DescribeConfigsHandler.Config(1, Map.of()),
                controller,
                new GroupConfigs(GroupConfigDefaults.fromProps(Map.of())));
        for (short version = ApiKeys.DESCRIBE_CONFIGS.oldestVersion(); version <= describe.latestVersion(); version++) {
            DescribeConfigsRequestData data =
                    new DescribeConfigsRequestData().setIncludeSynonyms(true).setIncludeDocumentation(true);
            data.resources()
                    .add(new DescribeConfigsResource()
                            .setResourceType((byte) 2)
                            .setResourceName("conf")
                            .setConfigurationKeys(List.of("segment.bytes", "retention.ms")));
            data.resources()
                    .add(new DescribeConfigsResource().setResourceType((byte) 4).setResourceName("2"));
            DescribeConfigsResponseData response =
                    Requests.call(describe, new DescribeConfigsRequest.Builder(data).build(version));
            DescribeConfigsResult topic = response.results().getFirst();
            assertEquals(2, topic.configs().size(), "v" + version);
            assertEquals(version >= 3 ? 3 : 0, topic.configs().getFirst().configType(), "v" + version + " INT");
            assertEquals(
                    version >= 3, !topic.configs().getFirst().documentation().isEmpty(), "v" + version);
            assertEquals(1, topic.configs().getFirst().synonyms().size(), "v" + version);
            DescribeConfigsResult otherBroker = response.results().get(1);
            assertEquals(Errors.INVALID_REQUEST.code(), otherBroker.errorCode());
            assertEquals(
                    "Unexpected broker id, expected 1 or empty string, but received 2", otherBroker.errorMessage());
        }
        IncrementalAlterConfigsHandler incremental = new IncrementalAlterConfigsHandler(AuthHelper.NONE, controller);
        for (short version = ApiKeys.INCREMENTAL_ALTER_CONFIGS.oldestVersion();
                version <= incremental.latestVersion();
                version++) {
            IncrementalAlterConfigsRequestData data = new IncrementalAlterConfigsRequestData();
            IncrementalAlterConfigsRequestData.AlterConfigsResource resource =
                    new IncrementalAlterConfigsRequestData.AlterConfigsResource()
                            .setResourceType((byte) 2)
                            .setResourceName("conf");
            resource.configs()
                    .add(new IncrementalAlterConfigsRequestData.AlterableConfig()
                            .setName("retention.ms")
                            .setValue(String.valueOf(1000 + version))
                            .setConfigOperation((byte) 0));
            data.resources().add(resource);
            IncrementalAlterConfigsResponseData response =
                    Requests.call(incremental, new IncrementalAlterConfigsRequest.Builder(data).build(version));
            assertEquals(Errors.NONE.code(), response.responses().getFirst().errorCode());
            assertEquals(
                    String.valueOf(1000 + version),
                    controller.image().topicConfig("conf").get("retention.ms"));
        }
        AlterConfigsHandler legacy = new AlterConfigsHandler(AuthHelper.NONE, controller);
        for (short version = ApiKeys.ALTER_CONFIGS.oldestVersion(); version <= legacy.latestVersion(); version++) {
            AlterConfigsRequestData data = new AlterConfigsRequestData();
            AlterConfigsRequestData.AlterConfigsResource resource = new AlterConfigsRequestData.AlterConfigsResource()
                    .setResourceType((byte) 2)
                    .setResourceName("conf");
            resource.configs()
                    .add(new AlterConfigsRequestData.AlterableConfig()
                            .setName("segment.ms")
                            .setValue(String.valueOf(100000 + version)));
            data.resources().add(resource);
            AlterConfigsResponseData response = Requests.call(legacy, new AlterConfigsRequest(data, version));
            assertEquals(Errors.NONE.code(), response.responses().getFirst().errorCode());
            assertEquals(
                    Map.of("segment.ms", String.valueOf(100000 + version)),
                    controller.image().topicConfig("conf"),
                    "the whole set replaced");
        }
    }

    @Test
    void createPartitionsAtEveryVersion() throws Exception {
        CreateTopicsRequestData create = new CreateTopicsRequestData();
        create.topics().add(QuorumControllerTestTopics.topic("grow", 1));
        controller.createTopics(create).get();
        CreatePartitionsHandler handler = new CreatePartitionsHandler(AuthHelper.NONE, controller);
        for (short version = ApiKeys.CREATE_PARTITIONS.oldestVersion(); version <= handler.latestVersion(); version++) {
            CreatePartitionsRequestData data = new CreatePartitionsRequestData().setTimeoutMs(1000);
            data.topics()
                    .add(new CreatePartitionsRequestData.CreatePartitionsTopic()
                            .setName("grow")
                            .setCount(version + 2)
                            .setAssignments(null));
            CreatePartitionsResponseData response =
                    Requests.call(handler, new CreatePartitionsRequest.Builder(data).build(version));
            assertEquals(Errors.NONE.code(), response.results().getFirst().errorCode(), "v" + version);
        }
        assertEquals(
                ApiKeys.CREATE_PARTITIONS.latestVersion() + 2,
                controller.image().topic("grow").orElseThrow().partitions().size());
    }

    @Test
    void describeClusterAtEveryVersionAndItsEndpointErrors() throws Exception {
        DescribeClusterHandler handler = new DescribeClusterHandler(AuthHelper.NONE, listener -> IDENTITY);
        for (short version = ApiKeys.DESCRIBE_CLUSTER.oldestVersion(); version <= handler.latestVersion(); version++) {
            DescribeClusterResponseData response = Requests.call(
                    handler, new DescribeClusterRequest.Builder(new DescribeClusterRequestData()).build(version));
            assertEquals(Errors.NONE.code(), response.errorCode());
            assertEquals(IDENTITY.clusterId(), response.clusterId());
            assertEquals(1, response.controllerId());
            assertEquals(9092, response.brokers().find(1).port());
        }
        DescribeClusterResponseData controllerType = Requests.call(
                handler,
                new DescribeClusterRequest.Builder(
                                new DescribeClusterRequestData().setEndpointType(EndpointType.CONTROLLER.id()))
                        .build((short) 1));
        assertEquals(Errors.MISMATCHED_ENDPOINT_TYPE.code(), controllerType.errorCode());
        assertTrue(controllerType.errorMessage().contains("BROKER"));
        DescribeClusterResponseData unknownType = Requests.call(
                handler,
                new DescribeClusterRequest.Builder(new DescribeClusterRequestData().setEndpointType((byte) 9))
                        .build((short) 1));
        assertEquals(Errors.UNSUPPORTED_ENDPOINT_TYPE.code(), unknownType.errorCode());
    }
}
