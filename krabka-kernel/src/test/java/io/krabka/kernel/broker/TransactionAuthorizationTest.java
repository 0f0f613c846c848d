package io.krabka.kernel.broker;

import static io.krabka.kernel.broker.TableAuthorizer.ALICE;
import static io.krabka.kernel.broker.TableAuthorizer.BOB;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.AddOffsetsToTxnRequestData;
import org.apache.kafka.common.message.AddOffsetsToTxnResponseData;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData;
import org.apache.kafka.common.message.AddPartitionsToTxnResponseData;
import org.apache.kafka.common.message.DescribeTransactionsRequestData;
import org.apache.kafka.common.message.DescribeTransactionsResponseData;
import org.apache.kafka.common.message.EndTxnRequestData;
import org.apache.kafka.common.message.EndTxnResponseData;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.InitProducerIdResponseData;
import org.apache.kafka.common.message.ListTransactionsRequestData;
import org.apache.kafka.common.message.ListTransactionsResponseData;
import org.apache.kafka.common.message.TxnOffsetCommitRequestData;
import org.apache.kafka.common.message.TxnOffsetCommitResponseData;
import org.apache.kafka.common.message.WriteTxnMarkersRequestData;
import org.apache.kafka.common.message.WriteTxnMarkersResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AddPartitionsToTxnRequest;
import org.apache.kafka.common.requests.AddPartitionsToTxnResponse;
import org.apache.kafka.common.resource.Resource;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.server.authorizer.Action;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The transaction APIs with an authorizer, on a real transaction coordinator: WRITE on the transactional id, the
 * idempotent producer's IDEMPOTENT_WRITE or WRITE on any topic, CLUSTER_ACTION for brokers' requests, and DESCRIBE
 * filtering the transactions listed and described.
 */
class TransactionAuthorizationTest {

    @RegisterExtension
    final DataPlane plane = DataPlane.perTest("orders", 1, Map.of());

    private final TableAuthorizer authorizer = new TableAuthorizer();
    private AuthHelper auth;

    @BeforeEach
    void start() throws Exception {
        plane.createTopic("secret", 1, Map.of());
        auth = new AuthHelper(Optional.of(authorizer));
        for (String id : List.of("t1", "t2")) {
            assertEquals(Errors.NONE, plane.transactions.findCoordinator(id).join());
            Waits.until(
                    () -> plane.transactions.describeTransaction(id).errorCode()
                            != Errors.COORDINATOR_LOAD_IN_PROGRESS.code(),
                    "the coordinator of " + id + " loaded");
        }
    }

    @Test
    void initProducerIdNeedsWriteOnTheTransactionalIdOrAnIdempotentProducersRight() throws Exception {
        InitProducerIdHandler handler = new InitProducerIdHandler(auth, plane.transactions);
        assertEquals(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED, initProducerId(handler, ALICE, "t1"));
        assertEquals(Errors.CLUSTER_AUTHORIZATION_FAILED, initProducerId(handler, ALICE, null));
        Action idempotent = authorizer.asked().stream()
                .filter(action -> action.operation() == AclOperation.IDEMPOTENT_WRITE)
                .findFirst()
                .orElseThrow();
        assertFalse(idempotent.logIfDenied(), "Kafka asks IDEMPOTENT_WRITE without logging a denial");

        authorizer.allow(ALICE, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, "t1");
        assertEquals(Errors.NONE, initProducerId(handler, ALICE, "t1"));
        authorizer.allow(ALICE, AclOperation.WRITE, ResourceType.TOPIC, "orders");
        assertEquals(Errors.NONE, initProducerId(handler, ALICE, null), "WRITE on some topic suffices (KIP-679)");
        authorizer.allow(BOB, AclOperation.IDEMPOTENT_WRITE, ResourceType.CLUSTER, Resource.CLUSTER_NAME);
        assertEquals(Errors.NONE, initProducerId(handler, BOB, null));
    }

    @Test
    void endTxnAndAddOffsetsToTxnNeedWriteOnTheIdThenReadOnTheGroup() throws Exception {
        EndTxnResponseData end = Requests.callAs(
                ALICE,
                new EndTxnHandler(auth, plane.transactions),
                ApiKeys.END_TXN,
                new EndTxnRequestData()
                        .setTransactionalId("t1")
                        .setProducerId(0)
                        .setCommitted(true),
                4);
        assertEquals(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.code(), end.errorCode());
        AddOffsetsToTxnHandler handler = new AddOffsetsToTxnHandler(auth, plane.transactions, plane.groups);
        AddOffsetsToTxnRequestData add =
                new AddOffsetsToTxnRequestData().setTransactionalId("t1").setGroupId("g1");
        assertEquals(
                Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.code(),
                ((AddOffsetsToTxnResponseData) Requests.callAs(ALICE, handler, ApiKeys.ADD_OFFSETS_TO_TXN, add, 4))
                        .errorCode());
        authorizer.allow(ALICE, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, "t1");
        assertEquals(
                Errors.GROUP_AUTHORIZATION_FAILED.code(),
                ((AddOffsetsToTxnResponseData) Requests.callAs(ALICE, handler, ApiKeys.ADD_OFFSETS_TO_TXN, add, 4))
                        .errorCode());
    }

    @Test
    void addPartitionsToTxnAuthorizesAClientsIdAndTopicsAndABrokersClusterAction() throws Exception {
        AddPartitionsToTxnHandler handler =
                new AddPartitionsToTxnHandler(auth, plane.transactions, plane.controller::image);
        AddPartitionsToTxnRequest v3 = AddPartitionsToTxnRequest.Builder.forClient(
                        "t1", 0, (short) 0, List.of(new TopicPartition("orders", 0), new TopicPartition("secret", 0)))
                .build((short) 3);
        assertEquals(
                Map.of(
                        new TopicPartition("orders", 0), Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED,
                        new TopicPartition("secret", 0), Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED),
                errors(Requests.callAs(ALICE, handler, v3)));
        authorizer
                .allow(ALICE, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, "t1")
                .allow(ALICE, AclOperation.WRITE, ResourceType.TOPIC, "orders");
        assertEquals(
                Map.of(
                        new TopicPartition("orders", 0), Errors.OPERATION_NOT_ATTEMPTED,
                        new TopicPartition("secret", 0), Errors.TOPIC_AUTHORIZATION_FAILED),
                errors(Requests.callAs(ALICE, handler, v3)));

        AddPartitionsToTxnRequestData.AddPartitionsToTxnTopicCollection topics =
                new AddPartitionsToTxnRequestData.AddPartitionsToTxnTopicCollection();
        topics.add(new AddPartitionsToTxnRequestData.AddPartitionsToTxnTopic()
                .setName("orders")
                .setPartitions(List.of(0)));
        AddPartitionsToTxnRequestData.AddPartitionsToTxnTransactionCollection transactions =
                new AddPartitionsToTxnRequestData.AddPartitionsToTxnTransactionCollection();
        transactions.add(new AddPartitionsToTxnRequestData.AddPartitionsToTxnTransaction()
                .setTransactionalId("t1")
                .setVerifyOnly(true)
                .setTopics(topics));
        AddPartitionsToTxnResponseData fromBroker = Requests.callAs(
                ALICE,
                handler,
                ApiKeys.ADD_PARTITIONS_TO_TXN,
                new AddPartitionsToTxnRequestData().setTransactions(transactions),
                4);
        assertEquals(Errors.CLUSTER_AUTHORIZATION_FAILED.code(), fromBroker.errorCode());
    }

    @Test
    void txnOffsetCommitNeedsWriteOnTheIdReadOnTheGroupAndReadOnEachTopic() throws Exception {
        TxnOffsetCommitHandler handler =
                new TxnOffsetCommitHandler(auth, plane.groups, plane.transactions, plane.controller::image);
        TxnOffsetCommitRequestData commit = new TxnOffsetCommitRequestData()
                .setTransactionalId("t1")
                .setGroupId("g1")
                .setProducerId(0)
                .setProducerEpoch((short) 0)
                .setGenerationIdOrMemberEpoch(-1)
                .setMemberId("");
        for (String topic : List.of("orders", "secret")) {
            commit.topics()
                    .add(new TxnOffsetCommitRequestData.TxnOffsetCommitRequestTopic()
                            .setName(topic)
                            .setPartitions(List.of(new TxnOffsetCommitRequestData.TxnOffsetCommitRequestPartition()
                                    .setPartitionIndex(0)
                                    .setCommittedOffset(1))));
        }
        assertEquals(
                Map.of(
                        "orders",
                        Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED,
                        "secret",
                        Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED),
                commitErrors(Requests.callAs(ALICE, handler, ApiKeys.TXN_OFFSET_COMMIT, commit, 4)));
        authorizer.allow(ALICE, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, "t1");
        assertEquals(
                Map.of("orders", Errors.GROUP_AUTHORIZATION_FAILED, "secret", Errors.GROUP_AUTHORIZATION_FAILED),
                commitErrors(Requests.callAs(ALICE, handler, ApiKeys.TXN_OFFSET_COMMIT, commit, 4)));
        authorizer
                .allow(ALICE, AclOperation.READ, ResourceType.GROUP, "g1")
                .allow(ALICE, AclOperation.READ, ResourceType.TOPIC, "orders");
        Map<String, Errors> errors =
                commitErrors(Requests.callAs(ALICE, handler, ApiKeys.TXN_OFFSET_COMMIT, commit, 4));
        assertEquals(Errors.TOPIC_AUTHORIZATION_FAILED, errors.get("secret"));
        assertFalse(errors.get("orders") == Errors.TOPIC_AUTHORIZATION_FAILED);
    }

    @Test
    void writeTxnMarkersNeedsAlterOrClusterAction() throws Exception {
        WriteTxnMarkersRequestData markers = new WriteTxnMarkersRequestData()
                .setMarkers(List.of(new WriteTxnMarkersRequestData.WritableTxnMarker()
                        .setProducerId(5)
                        .setProducerEpoch((short) 0)
                        .setTransactionResult(false)
                        .setCoordinatorEpoch(0)
                        .setTopics(List.of(new WriteTxnMarkersRequestData.WritableTxnMarkerTopic()
                                .setName("orders")
                                .setPartitionIndexes(List.of(0))))));
        WriteTxnMarkersHandler handler = new WriteTxnMarkersHandler(auth, plane.transactions, plane.controller::image);
        WriteTxnMarkersResponseData refused = Requests.callAs(ALICE, handler, ApiKeys.WRITE_TXN_MARKERS, markers, 1);
        assertEquals(
                Errors.CLUSTER_AUTHORIZATION_FAILED.code(),
                refused.markers()
                        .getFirst()
                        .topics()
                        .getFirst()
                        .partitions()
                        .getFirst()
                        .errorCode());
        authorizer.allow(ALICE, AclOperation.CLUSTER_ACTION, ResourceType.CLUSTER, Resource.CLUSTER_NAME);
        WriteTxnMarkersResponseData written = Requests.callAs(ALICE, handler, ApiKeys.WRITE_TXN_MARKERS, markers, 1);
        assertEquals(
                Errors.NONE.code(),
                written.markers()
                        .getFirst()
                        .topics()
                        .getFirst()
                        .partitions()
                        .getFirst()
                        .errorCode());
    }

    @Test
    void describeAndListTransactionsShowOnlyWhatThePrincipalMayDescribe() throws Exception {
        InitProducerIdHandler init = new InitProducerIdHandler(auth, plane.transactions);
        authorizer.allow(ALICE, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, TableAuthorizer.ANY);
        assertEquals(Errors.NONE, initProducerId(init, ALICE, "t1"));
        assertEquals(Errors.NONE, initProducerId(init, ALICE, "t2"));
        authorizer.allow(BOB, AclOperation.DESCRIBE, ResourceType.TRANSACTIONAL_ID, "t2");
        ListTransactionsResponseData listed = Requests.callAs(
                BOB,
                new ListTransactionsHandler(auth, plane.transactions),
                ApiKeys.LIST_TRANSACTIONS,
                new ListTransactionsRequestData(),
                1);
        assertEquals(
                List.of("t2"),
                listed.transactionStates().stream()
                        .map(ListTransactionsResponseData.TransactionState::transactionalId)
                        .toList());
        DescribeTransactionsResponseData described = Requests.callAs(
                BOB,
                new DescribeTransactionsHandler(auth, plane.transactions),
                ApiKeys.DESCRIBE_TRANSACTIONS,
                new DescribeTransactionsRequestData().setTransactionalIds(List.of("t1", "t2")),
                0);
        assertEquals(
                Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.code(),
                described.transactionStates().get(0).errorCode());
        assertEquals(Errors.NONE.code(), described.transactionStates().get(1).errorCode());
    }

    private Errors initProducerId(InitProducerIdHandler handler, KafkaPrincipal principal, String transactionalId)
            throws Exception {
        InitProducerIdResponseData response = Requests.callAs(
                principal,
                handler,
                ApiKeys.INIT_PRODUCER_ID,
                new InitProducerIdRequestData()
                        .setTransactionalId(transactionalId)
                        .setTransactionTimeoutMs(60_000)
                        .setProducerId(-1)
                        .setProducerEpoch((short) -1),
                5);
        return Errors.forCode(response.errorCode());
    }

    private static Map<TopicPartition, Errors> errors(AddPartitionsToTxnResponseData data) {
        return new AddPartitionsToTxnResponse(data).errors().get(AddPartitionsToTxnResponse.V3_AND_BELOW_TXN_ID);
    }

    private static Map<String, Errors> commitErrors(TxnOffsetCommitResponseData response) {
        return response.topics().stream()
                .collect(java.util.stream.Collectors.toMap(
                        TxnOffsetCommitResponseData.TxnOffsetCommitResponseTopic::name,
                        topic -> Errors.forCode(topic.partitions().getFirst().errorCode())));
    }
}
