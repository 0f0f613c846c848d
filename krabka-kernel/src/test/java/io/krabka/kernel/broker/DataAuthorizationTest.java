package io.krabka.kernel.broker;

import static io.krabka.kernel.broker.TableAuthorizer.ALICE;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.DeleteRecordsRequestData;
import org.apache.kafka.common.message.DeleteRecordsResponseData;
import org.apache.kafka.common.message.DescribeProducersRequestData;
import org.apache.kafka.common.message.DescribeProducersResponseData;
import org.apache.kafka.common.message.FetchRequestData;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.message.ListOffsetsRequestData;
import org.apache.kafka.common.message.ListOffsetsResponseData;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData;
import org.apache.kafka.common.message.OffsetForLeaderEpochResponseData;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.apache.kafka.common.resource.Resource;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.server.authorizer.Action;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Produce, Fetch and the other partition APIs with an authorizer, on real logs: per partition
 * TOPIC_AUTHORIZATION_FAILED where the principal lacks the topic's operation (asked before the topic's existence),
 * the whole request refused for a transactional id, with Kafka's reference counts.
 */
class DataAuthorizationTest {

    @RegisterExtension
    final DataPlane plane = DataPlane.perTest("orders", 2, Map.of());

    private final TableAuthorizer authorizer = new TableAuthorizer();
    private AuthHelper auth;

    @BeforeEach
    void start() throws Exception {
        plane.createTopic("secret", 1, Map.of());
        auth = new AuthHelper(Optional.of(authorizer));
    }

    @Test
    void produceNeedsWriteOnEachTopicWithAReferencePerPartition() throws Exception {
        authorizer.allow(ALICE, AclOperation.WRITE, ResourceType.TOPIC, "orders");
        ProduceRequestData produce = produce(null, DataRequests.records("a"), "orders", "orders", "secret", "ghost");
        ProduceResponseData response = Requests.callAs(ALICE, produceHandler(), ApiKeys.PRODUCE, produce, 11);
        assertEquals(
                Map.of(
                        "orders", List.of(Errors.NONE, Errors.NONE),
                        "secret", List.of(Errors.TOPIC_AUTHORIZATION_FAILED),
                        "ghost", List.of(Errors.TOPIC_AUTHORIZATION_FAILED)),
                response.responses().stream()
                        .collect(Collectors.toMap(
                                ProduceResponseData.TopicProduceResponse::name,
                                topic -> topic.partitionResponses().stream()
                                        .map(partition -> Errors.forCode(partition.errorCode()))
                                        .toList())));
        Action orders = authorizer.asked().stream()
                .filter(action -> action.resourcePattern().name().equals("orders"))
                .findFirst()
                .orElseThrow();
        assertEquals(2, orders.resourceReferenceCount(), "one reference per partition written");
    }

    @Test
    void transactionalRecordsNeedWriteOnTheTransactionalId() throws Exception {
        authorizer.allow(ALICE, AclOperation.WRITE, ResourceType.TOPIC, "orders");
        MemoryRecords transactional = MemoryRecords.withTransactionalRecords(
                Compression.NONE, 1000L, (short) 0, 0, new SimpleRecord("v".getBytes()));
        ProduceResponseData refused =
                Requests.callAs(ALICE, produceHandler(), ApiKeys.PRODUCE, produce("tx", transactional, "orders"), 11);
        assertEquals(
                Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.code(),
                refused.responses()
                        .iterator()
                        .next()
                        .partitionResponses()
                        .getFirst()
                        .errorCode());

        // Transactional records without a transactional id are refused alike, with or without an authorizer.
        ProduceHandler open =
                new ProduceHandler(AuthHelper.NONE, plane.replicaManager, plane.controller::image, plane.transactions);
        ProduceResponseData anonymous =
                Requests.callAs(ALICE, open, ApiKeys.PRODUCE, produce(null, transactional, "orders"), 11);
        assertEquals(
                Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.code(),
                anonymous
                        .responses()
                        .iterator()
                        .next()
                        .partitionResponses()
                        .getFirst()
                        .errorCode());
    }

    @Test
    void fetchNeedsReadOnEachTopicAndAReplicaClusterAction() throws Exception {
        authorizer.allow(ALICE, AclOperation.READ, ResourceType.TOPIC, "orders");
        FetchHandler handler = new FetchHandler(
                auth, FetchConfig.DEFAULTS, plane.replicaManager, plane.fetchManager, plane.controller::image);
        FetchRequestData fetch = DataRequests.fetch(
                0,
                0,
                DataRequests.fetchTopic("orders", Uuid.ZERO_UUID, DataRequests.fetchPartition(0, 0, 1024)),
                DataRequests.fetchTopic("secret", Uuid.ZERO_UUID, DataRequests.fetchPartition(0, 0, 1024)));
        assertEquals(
                Map.of("orders", Errors.NONE, "secret", Errors.TOPIC_AUTHORIZATION_FAILED),
                fetchErrors(fetch(handler, fetch)));

        FetchRequestData follower = DataRequests.fetch(
                        0,
                        0,
                        DataRequests.fetchTopic("orders", Uuid.ZERO_UUID, DataRequests.fetchPartition(0, 0, 1024)))
                .setReplicaId(2);
        assertEquals(Map.of("orders", Errors.TOPIC_AUTHORIZATION_FAILED), fetchErrors(fetch(handler, follower)));
        authorizer.allow(ALICE, AclOperation.CLUSTER_ACTION, ResourceType.CLUSTER, Resource.CLUSTER_NAME);
        assertEquals(Map.of("orders", Errors.NOT_LEADER_OR_FOLLOWER), fetchErrors(fetch(handler, follower)));
    }

    @Test
    void listOffsetsAndOffsetForLeaderEpochNeedDescribeAndAnswerTheRefusedTopicsLast() throws Exception {
        authorizer.allow(ALICE, AclOperation.DESCRIBE, ResourceType.TOPIC, "orders");
        ListOffsetsRequestData list = new ListOffsetsRequestData().setReplicaId(-1);
        for (String topic : List.of("secret", "orders")) {
            list.topics()
                    .add(new ListOffsetsRequestData.ListOffsetsTopic()
                            .setName(topic)
                            .setPartitions(List.of(DataRequests.listPartition(0, -1))));
        }
        ListOffsetsResponseData offsets = Requests.callAs(
                ALICE, new ListOffsetsHandler(auth, plane.replicaManager), ApiKeys.LIST_OFFSETS, list, 8);
        assertEquals(
                List.of("orders", "secret"),
                offsets.topics().stream()
                        .map(ListOffsetsResponseData.ListOffsetsTopicResponse::name)
                        .toList());
        ListOffsetsResponseData.ListOffsetsPartitionResponse secret =
                offsets.topics().get(1).partitions().getFirst();
        assertEquals(Errors.TOPIC_AUTHORIZATION_FAILED.code(), secret.errorCode());
        assertEquals(-1L, secret.offset());

        OffsetForLeaderEpochRequestData epochs = new OffsetForLeaderEpochRequestData().setReplicaId(-2);
        for (String topic : List.of("secret", "orders")) {
            epochs.topics()
                    .add(new OffsetForLeaderEpochRequestData.OffsetForLeaderTopic()
                            .setTopic(topic)
                            .setPartitions(List.of(new OffsetForLeaderEpochRequestData.OffsetForLeaderPartition()
                                    .setPartition(0)
                                    .setCurrentLeaderEpoch(-1)
                                    .setLeaderEpoch(0))));
        }
        OffsetForLeaderEpochHandler epochHandler = new OffsetForLeaderEpochHandler(auth, plane.replicaManager);
        OffsetForLeaderEpochResponseData ends =
                Requests.callAs(ALICE, epochHandler, ApiKeys.OFFSET_FOR_LEADER_EPOCH, epochs, 4);
        assertEquals(
                List.of("orders", "secret"),
                ends.topics().stream()
                        .map(OffsetForLeaderEpochResponseData.OffsetForLeaderTopicResult::topic)
                        .toList());
        assertEquals(
                Errors.TOPIC_AUTHORIZATION_FAILED.code(),
                ends.topics().find("secret").partitions().getFirst().errorCode());
        authorizer.allow(ALICE, AclOperation.CLUSTER_ACTION, ResourceType.CLUSTER, Resource.CLUSTER_NAME);
        OffsetForLeaderEpochResponseData replica =
                Requests.callAs(ALICE, epochHandler, ApiKeys.OFFSET_FOR_LEADER_EPOCH, epochs, 4);
        assertEquals(
                Errors.NONE.code(),
                replica.topics().find("secret").partitions().getFirst().errorCode(),
                "CLUSTER_ACTION answers every topic");
    }

    @Test
    void deleteRecordsNeedsDeleteAndDescribeProducersRead() throws Exception {
        authorizer
                .allow(ALICE, AclOperation.DELETE, ResourceType.TOPIC, "orders")
                .allow(ALICE, AclOperation.READ, ResourceType.TOPIC, "orders");
        DeleteRecordsRequestData delete = new DeleteRecordsRequestData().setTimeoutMs(1000);
        for (String topic : List.of("orders", "secret")) {
            delete.topics()
                    .add(new DeleteRecordsRequestData.DeleteRecordsTopic()
                            .setName(topic)
                            .setPartitions(List.of(new DeleteRecordsRequestData.DeleteRecordsPartition()
                                    .setPartitionIndex(0)
                                    .setOffset(0))));
        }
        DeleteRecordsResponseData deleted = Requests.callAs(
                ALICE, new DeleteRecordsHandler(auth, plane.replicaManager), ApiKeys.DELETE_RECORDS, delete, 2);
        assertEquals(
                Errors.NONE.code(),
                deleted.topics().find("orders").partitions().find(0).errorCode());
        DeleteRecordsResponseData.DeleteRecordsPartitionResult secret =
                deleted.topics().find("secret").partitions().find(0);
        assertEquals(Errors.TOPIC_AUTHORIZATION_FAILED.code(), secret.errorCode());
        assertEquals(-1L, secret.lowWatermark());

        DescribeProducersRequestData describe = new DescribeProducersRequestData();
        for (String topic : List.of("orders", "secret", "bad name")) {
            describe.topics()
                    .add(new DescribeProducersRequestData.TopicRequest()
                            .setName(topic)
                            .setPartitionIndexes(List.of(0)));
        }
        DescribeProducersResponseData producers = Requests.callAs(
                ALICE,
                new DescribeProducersHandler(auth, plane.replicaManager),
                ApiKeys.DESCRIBE_PRODUCERS,
                describe,
                0);
        assertEquals(
                List.of(Errors.NONE, Errors.TOPIC_AUTHORIZATION_FAILED, Errors.INVALID_TOPIC_EXCEPTION),
                producers.topics().stream()
                        .map(topic ->
                                Errors.forCode(topic.partitions().getFirst().errorCode()))
                        .toList(),
                "an invalid name is answered before authorization, as Kafka's");
    }

    private ProduceHandler produceHandler() {
        return new ProduceHandler(auth, plane.replicaManager, plane.controller::image, plane.transactions);
    }

    private static ProduceRequestData produce(String transactionalId, MemoryRecords records, String... topics) {
        ProduceRequestData.TopicProduceDataCollection data = new ProduceRequestData.TopicProduceDataCollection();
        int partition = 0;
        for (int i = 0; i < topics.length; i++) {
            ProduceRequestData.TopicProduceData topic = data.find(topics[i], Uuid.ZERO_UUID);
            if (topic == null) {
                topic = new ProduceRequestData.TopicProduceData().setName(topics[i]);
                data.add(topic);
                partition = 0;
            }
            topic.partitionData()
                    .add(new ProduceRequestData.PartitionProduceData()
                            .setIndex(partition++)
                            .setRecords(records));
        }
        return new ProduceRequestData()
                .setAcks((short) 1)
                .setTimeoutMs(30_000)
                .setTransactionalId(transactionalId)
                .setTopicData(data);
    }

    // A fetch's answer is read as the handler gave it: its records are written by the network layer.
    private static FetchResponseData fetch(FetchHandler handler, FetchRequestData data) throws Exception {
        return (FetchResponseData) Requests.answerAs(ALICE, handler, Requests.request(ApiKeys.FETCH, data, (short) 12));
    }

    private static Map<String, Errors> fetchErrors(FetchResponseData response) {
        return response.responses().stream()
                .collect(Collectors.toMap(
                        FetchResponseData.FetchableTopicResponse::topic,
                        topic -> Errors.forCode(topic.partitions().getFirst().errorCode())));
    }
}
