package io.krabka.kernel.broker;

import static io.krabka.kernel.broker.TableAuthorizer.ALICE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.controller.Controllers;
import io.krabka.kernel.controller.QuorumControllerTestTopics;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.DescribeClusterRequestData;
import org.apache.kafka.common.message.DescribeClusterResponseData;
import org.apache.kafka.common.message.MetadataRequestData;
import org.apache.kafka.common.message.MetadataRequestData.MetadataRequestTopic;
import org.apache.kafka.common.message.MetadataResponseData;
import org.apache.kafka.common.message.MetadataResponseData.MetadataResponseTopic;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DescribeClusterRequest;
import org.apache.kafka.common.requests.MetadataRequest;
import org.apache.kafka.common.resource.Resource;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.server.authorizer.Action;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Metadata and DescribeCluster with an authorizer, as Kafka's {@code KafkaApis} answers them: topics filtered by
 * DESCRIBE, refusals placed after the rest, auto-creation by CREATE, and the authorized operations.
 */
class MetadataAuthorizationTest {

    private static final BrokerIdentity IDENTITY =
            new BrokerIdentity(1, "kUtTVxF2S8GcqgGq3ymNbA", "broker.example", 9092, Optional.empty());

    @TempDir
    Path dir;

    private Controllers controllers;
    private Uuid paymentsId;
    private final TableAuthorizer authorizer = new TableAuthorizer();

    @BeforeEach
    void start() throws Exception {
        controllers = Controllers.formatAndStart(dir, Map.of());
        CreateTopicsRequestData create = new CreateTopicsRequestData();
        create.topics().add(QuorumControllerTestTopics.topic("orders", 2));
        create.topics().add(QuorumControllerTestTopics.topic("payments", 1));
        paymentsId = controllers
                .controller()
                .createTopics(create)
                .get()
                .topics()
                .find("payments")
                .topicId();
    }

    @AfterEach
    void stop() throws Exception {
        controllers.close();
    }

    @Test
    void aListOfAllTopicsHoldsOnlyTheDescribableOnesAndLogsNoDenial() throws Exception {
        authorizer.allow(ALICE, AclOperation.DESCRIBE, ResourceType.TOPIC, "orders");
        MetadataResponseData response = metadata(false, new MetadataRequestData().setTopics(null), (short) 12);
        assertEquals(List.of("orders"), names(response));
        Action payments = asked(AclOperation.DESCRIBE, "payments");
        assertFalse(payments.logIfDenied(), "a list of all topics does not log its denials");
        assertTrue(payments.logIfAllowed());
    }

    @Test
    void aNamedTopicThatMayNotBeDescribedIsRefusedAfterTheOthersWithoutDisclosingWhetherItExists() throws Exception {
        authorizer
                .allow(ALICE, AclOperation.DESCRIBE, ResourceType.TOPIC, "orders")
                .allow(ALICE, AclOperation.DESCRIBE, ResourceType.TOPIC, "missing");
        MetadataRequestData data = new MetadataRequestData().setAllowAutoTopicCreation(false);
        for (String name : List.of("payments", "orders", "missing", "secret-missing")) {
            data.topics().add(new MetadataRequestTopic().setName(name));
        }
        MetadataResponseData response = metadata(false, data, (short) 12);
        assertEquals(List.of("orders", "missing", "payments", "secret-missing"), names(response));
        assertEquals(
                List.of(
                        Errors.NONE,
                        Errors.UNKNOWN_TOPIC_OR_PARTITION,
                        Errors.TOPIC_AUTHORIZATION_FAILED,
                        Errors.TOPIC_AUTHORIZATION_FAILED),
                errors(response));
        MetadataResponseTopic payments = response.topics().find("payments");
        assertEquals(Uuid.ZERO_UUID, payments.topicId(), "no id is disclosed");
        assertTrue(payments.partitions().isEmpty());
        assertTrue(asked(AclOperation.DESCRIBE, "payments").logIfDenied(), "a named topic's denial is logged");
    }

    @Test
    void aTopicAskedForByIdIsRefusedByIdWithoutItsName() throws Exception {
        MetadataRequestData data = new MetadataRequestData();
        data.topics().add(new MetadataRequestTopic().setTopicId(paymentsId));
        MetadataResponseData response = metadata(false, data, (short) 12);
        MetadataResponseTopic refused = response.topics().iterator().next();
        assertEquals(Errors.TOPIC_AUTHORIZATION_FAILED.code(), refused.errorCode());
        assertNull(refused.name());
        assertEquals(paymentsId, refused.topicId());
    }

    @Test
    void autoCreationNeedsCreateOnTheClusterOrTheTopic() throws Exception {
        authorizer
                .allow(ALICE, AclOperation.DESCRIBE, ResourceType.TOPIC, TableAuthorizer.ANY)
                .allow(ALICE, AclOperation.CREATE, ResourceType.TOPIC, "new-a");
        MetadataRequestData data = new MetadataRequestData().setAllowAutoTopicCreation(true);
        data.topics().add(new MetadataRequestTopic().setName("new-b"));
        data.topics().add(new MetadataRequestTopic().setName("new-a"));
        MetadataResponseData response = metadata(true, data, (short) 12);
        assertEquals(List.of("new-a", "new-b"), names(response));
        assertEquals(List.of(Errors.LEADER_NOT_AVAILABLE, Errors.TOPIC_AUTHORIZATION_FAILED), errors(response));
        assertFalse(asked(AclOperation.CREATE, Resource.CLUSTER_NAME).logIfDenied(), "Kafka asks the cluster quietly");

        authorizer.allow(ALICE, AclOperation.CREATE, ResourceType.CLUSTER, Resource.CLUSTER_NAME);
        MetadataRequestData again = new MetadataRequestData().setAllowAutoTopicCreation(true);
        again.topics().add(new MetadataRequestTopic().setName("new-c"));
        assertEquals(List.of(Errors.LEADER_NOT_AVAILABLE), errors(metadata(true, again, (short) 12)));
    }

    @Test
    void authorizedOperationsAreThePrincipals() throws Exception {
        authorizer
                .allow(ALICE, AclOperation.DESCRIBE, ResourceType.TOPIC, "orders")
                .allow(ALICE, AclOperation.READ, ResourceType.TOPIC, "orders");
        MetadataRequestData data = new MetadataRequestData()
                .setIncludeClusterAuthorizedOperations(true)
                .setIncludeTopicAuthorizedOperations(true);
        data.topics().add(new MetadataRequestTopic().setName("orders"));
        MetadataResponseData response = metadata(false, data, (short) 10);
        assertEquals(
                AuthorizedOperations.field(List.of(AclOperation.READ, AclOperation.DESCRIBE)),
                response.topics().find("orders").topicAuthorizedOperations());
        assertEquals(0, response.clusterAuthorizedOperations(), "no DESCRIBE on the cluster: none reported");

        authorizer
                .allow(ALICE, AclOperation.DESCRIBE, ResourceType.CLUSTER, Resource.CLUSTER_NAME)
                .allow(ALICE, AclOperation.ALTER, ResourceType.CLUSTER, Resource.CLUSTER_NAME);
        int cluster = AuthorizedOperations.field(List.of(AclOperation.DESCRIBE, AclOperation.ALTER));
        assertEquals(cluster, metadata(false, data, (short) 10).clusterAuthorizedOperations());
        DescribeClusterHandler describeCluster = new DescribeClusterHandler(auth(), listener -> IDENTITY);
        DescribeClusterResponseData described = Requests.callAs(
                ALICE,
                describeCluster,
                new DescribeClusterRequest.Builder(
                                new DescribeClusterRequestData().setIncludeClusterAuthorizedOperations(true))
                        .build((short) 1));
        assertEquals(cluster, described.clusterAuthorizedOperations());
        DescribeClusterResponseData anonymous = Requests.callAs(
                KafkaPrincipal.ANONYMOUS,
                describeCluster,
                new DescribeClusterRequest.Builder(
                                new DescribeClusterRequestData().setIncludeClusterAuthorizedOperations(true))
                        .build((short) 1));
        assertEquals(Errors.NONE.code(), anonymous.errorCode(), "anyone may describe the cluster");
        assertEquals(0, anonymous.clusterAuthorizedOperations());
    }

    @Test
    void withoutAnAuthorizerEveryOperationIsReportedAsKafkaDoes() throws Exception {
        MetadataHandler handler = new MetadataHandler(
                AuthHelper.NONE, listener -> IDENTITY, new MetadataHandler.Config(false), controllers.controller());
        MetadataRequestData data = new MetadataRequestData()
                .setIncludeClusterAuthorizedOperations(true)
                .setIncludeTopicAuthorizedOperations(true);
        data.topics().add(new MetadataRequestTopic().setName("orders"));
        MetadataResponseData response = Requests.callAs(ALICE, handler, new MetadataRequest(data, (short) 10));
        assertEquals(
                AuthorizedOperations.field(AuthorizedOperations.supported(ResourceType.TOPIC)),
                response.topics().find("orders").topicAuthorizedOperations());
        assertEquals(
                AuthorizedOperations.field(AuthorizedOperations.supported(ResourceType.CLUSTER)),
                response.clusterAuthorizedOperations());
    }

    private AuthHelper auth() {
        return new AuthHelper(Optional.of(authorizer));
    }

    private MetadataResponseData metadata(boolean autoCreate, MetadataRequestData data, short version)
            throws Exception {
        MetadataHandler handler = new MetadataHandler(
                auth(), listener -> IDENTITY, new MetadataHandler.Config(autoCreate), controllers.controller());
        return Requests.callAs(ALICE, handler, new MetadataRequest(data, version));
    }

    private Action asked(AclOperation operation, String name) {
        return authorizer.asked().stream()
                .filter(action -> action.operation() == operation
                        && action.resourcePattern().name().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("never asked " + operation + " on " + name));
    }

    private static List<String> names(MetadataResponseData response) {
        return response.topics().stream().map(MetadataResponseTopic::name).toList();
    }

    private static List<Errors> errors(MetadataResponseData response) {
        return response.topics().stream()
                .map(topic -> Errors.forCode(topic.errorCode()))
                .toList();
    }
}
