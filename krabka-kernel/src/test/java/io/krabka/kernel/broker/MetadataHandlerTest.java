package io.krabka.kernel.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.controller.Controllers;
import io.krabka.kernel.controller.QuorumControllerTestTopics;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataRequestData.MetadataRequestTopic;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponseTopic;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.MetadataRequest;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Metadata at every version Kafka 4.4 supports, answers encoded and read back at that version. */
class MetadataHandlerTest {

    private static final BrokerIdentity IDENTITY =
            new BrokerIdentity(1, "kUtTVxF2S8GcqgGq3ymNbA", "broker.example", 9092, Optional.of("rack-a"));

    @TempDir
    Path dir;

    private Controllers controllers;
    private Uuid ordersId;

    @BeforeEach
    void start() throws Exception {
        controllers = Controllers.formatAndStart(dir, Map.of());
        CreateTopicsRequestData create = new CreateTopicsRequestData();
        create.topics().add(QuorumControllerTestTopics.topic("orders", 2));
        create.topics().add(QuorumControllerTestTopics.topic("__consumer_offsets", 3));
        ordersId = controllers
                .controller()
                .createTopics(create)
                .get()
                .topics()
                .find("orders")
                .topicId();
    }

    @AfterEach
    void stop() throws Exception {
        controllers.close();
    }

    @Test
    void everyVersionDescribesTheBrokerAndTopics() throws Exception {
        MetadataHandler handler = new MetadataHandler(
                AuthHelper.NONE, listener -> IDENTITY, new MetadataHandler.Config(false), controllers.controller());
        for (short version = ApiKeys.METADATA.oldestVersion(); version <= ApiKeys.METADATA.latestVersion(); version++) {
            MetadataRequestData data = new MetadataRequestData().setAllowAutoTopicCreation(false);
            for (String name : List.of("orders", "__consumer_offsets", "missing", "bad name")) {
                data.topics().add(new MetadataRequestTopic().setName(name));
            }
            MetadataResponseData response = Requests.call(handler, new MetadataRequest(data, version));
            String at = "v" + version;
            assertEquals(1, response.brokers().size(), at);
            assertEquals("broker.example", response.brokers().iterator().next().host(), at);
            assertEquals(9092, response.brokers().iterator().next().port(), at);
            if (version >= 1) {
                assertEquals(1, response.controllerId(), at);
                assertEquals("rack-a", response.brokers().iterator().next().rack(), at);
            }
            if (version >= 2) {
                assertEquals(IDENTITY.clusterId(), response.clusterId(), at);
            }
            MetadataResponseTopic orders = response.topics().find("orders");
            assertEquals(Errors.NONE.code(), orders.errorCode(), at);
            assertEquals(2, orders.partitions().size(), at);
            assertEquals(List.of(1), orders.partitions().getFirst().replicaNodes(), at);
            assertEquals(1, orders.partitions().getFirst().leaderId(), at);
            assertEquals(version >= 10 ? ordersId : Uuid.ZERO_UUID, orders.topicId(), at);
            if (version >= 1) {
                assertTrue(response.topics().find("__consumer_offsets").isInternal(), at);
            }
            assertEquals(
                    Errors.UNKNOWN_TOPIC_OR_PARTITION.code(),
                    response.topics().find("missing").errorCode(),
                    at);
            assertEquals(
                    Errors.INVALID_TOPIC_EXCEPTION.code(),
                    response.topics().find("bad name").errorCode(),
                    at);

            MetadataResponseData all = Requests.call(
                    handler,
                    new MetadataRequest(new MetadataRequestData().setTopics(version == 0 ? List.of() : null), version));
            assertEquals(2, all.topics().size(), at);
        }
    }

    @Test
    void topicIdsFromVersion12() throws Exception {
        MetadataHandler handler = new MetadataHandler(
                AuthHelper.NONE, listener -> IDENTITY, new MetadataHandler.Config(false), controllers.controller());
        Uuid unknown = Uuid.randomUuid();
        MetadataRequestData data = new MetadataRequestData();
        data.topics().add(new MetadataRequestTopic().setTopicId(ordersId));
        data.topics().add(new MetadataRequestTopic().setTopicId(unknown));
        MetadataResponseData response = Requests.call(handler, new MetadataRequest(data, (short) 12));
        assertEquals(2, response.topics().size());
        MetadataResponseTopic byId = response.topics().stream()
                .filter(t -> ordersId.equals(t.topicId()))
                .findFirst()
                .orElseThrow();
        assertEquals("orders", byId.name());
        MetadataResponseTopic missing = response.topics().stream()
                .filter(t -> unknown.equals(t.topicId()))
                .findFirst()
                .orElseThrow();
        assertEquals(Errors.UNKNOWN_TOPIC_ID.code(), missing.errorCode());
        assertEquals(null, missing.name());

        MetadataRequestData old = new MetadataRequestData();
        old.topics().add(new MetadataRequestTopic().setName("orders").setTopicId(ordersId));
        assertEquals(
                "Topic IDs are not supported in requests for version 11",
                assertThrows(
                                InvalidRequestException.class,
                                () -> handler.handle(new io.krabka.kernel.network.Request(
                                        new org.apache.kafka.common.requests.RequestHeader(
                                                ApiKeys.METADATA, (short) 11, "test", 1),
                                        new MetadataRequest(old, (short) 11),
                                        new io.krabka.kernel.network.ConnectionInfo(
                                                "c",
                                                new java.net.InetSocketAddress(1),
                                                new java.net.InetSocketAddress(2),
                                                "PLAINTEXT",
                                                org.apache.kafka.common.security.auth.SecurityProtocol.PLAINTEXT),
                                        0,
                                        org.apache.kafka.common.security.auth.KafkaPrincipal.ANONYMOUS)))
                        .getMessage());
    }

    @Test
    void autoCreationAnswersLeaderNotAvailableThenTheTopicExists() throws Exception {
        MetadataHandler handler = new MetadataHandler(
                AuthHelper.NONE, listener -> IDENTITY, new MetadataHandler.Config(true), controllers.controller());
        MetadataRequestData data = new MetadataRequestData().setAllowAutoTopicCreation(true);
        data.topics().add(new MetadataRequestTopic().setName("fresh"));
        data.topics().add(new MetadataRequestTopic().setName("__transaction_state"));
        MetadataResponseData first =
                Requests.call(handler, new MetadataRequest(data, ApiKeys.METADATA.latestVersion()));
        assertEquals(
                Errors.LEADER_NOT_AVAILABLE.code(), first.topics().find("fresh").errorCode());
        assertEquals(
                Errors.UNKNOWN_TOPIC_OR_PARTITION.code(),
                first.topics().find("__transaction_state").errorCode(),
                "internal topics are created by their owners");
        // The controller runs one operation at a time: a write queued after the creation completes after it.
        controllers.controller().createTopics(new CreateTopicsRequestData()).get();
        MetadataResponseData second =
                Requests.call(handler, new MetadataRequest(data, ApiKeys.METADATA.latestVersion()));
        assertEquals(Errors.NONE.code(), second.topics().find("fresh").errorCode());
        assertEquals(1, second.topics().find("fresh").partitions().size());
    }
}
