package io.krabka.kernel.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.krabka.kernel.controller.QuorumControllerTestTopics;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeClusterOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.resource.Resource;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka's Java admin client against a control plane whose handlers ask an authorizer: its refusals reach the client as
 * Kafka's exceptions (TopicAuthorizationException, ClusterAuthorizationException), topic lists are filtered, and the
 * cluster's authorized operations are the principal's. The connection is PLAINTEXT, so the principal is ANONYMOUS.
 */
class AuthorizationIT {

    private static final KafkaPrincipal ANONYMOUS = KafkaPrincipal.ANONYMOUS;

    @TempDir
    Path dir;

    private final TableAuthorizer authorizer = new TableAuthorizer()
            .allow(ANONYMOUS, AclOperation.DESCRIBE, ResourceType.TOPIC, "orders")
            .allow(ANONYMOUS, AclOperation.CREATE, ResourceType.TOPIC, "orders")
            .allow(ANONYMOUS, AclOperation.DESCRIBE, ResourceType.CLUSTER, Resource.CLUSTER_NAME);
    private ControlPlane plane;
    private Admin admin;

    @BeforeEach
    void start() throws Exception {
        plane = ControlPlane.start(dir, Map.of("num.partitions", "1"), false, new AuthHelper(Optional.of(authorizer)));
        admin = Admin.create(Map.of(
                "bootstrap.servers",
                plane.bootstrapServers(),
                "default.api.timeout.ms",
                20000,
                "request.timeout.ms",
                10000));
        CreateTopicsRequestData secret = new CreateTopicsRequestData();
        secret.topics().add(QuorumControllerTestTopics.topic("secret", 1));
        plane.controller().createTopics(secret).get();
    }

    @AfterEach
    void stop() throws Exception {
        admin.close(Duration.ofSeconds(10));
        plane.close();
    }

    @Test
    void theAdminClientSeesOnlyWhatItMayAndGetsKafkasExceptionsForTheRest() throws Exception {
        admin.createTopics(List.of(new NewTopic("orders", 1, (short) 1))).all().get();
        assertEquals(Set.of("orders"), admin.listTopics().names().get(), "the topic list holds what it may describe");

        ExecutionException describe = assertThrows(
                ExecutionException.class,
                () -> admin.describeTopics(List.of("secret")).allTopicNames().get());
        assertInstanceOf(TopicAuthorizationException.class, describe.getCause());

        ExecutionException create = assertThrows(
                ExecutionException.class,
                () -> admin.createTopics(List.of(new NewTopic("forbidden", 1, (short) 1)))
                        .all()
                        .get());
        assertInstanceOf(TopicAuthorizationException.class, create.getCause());

        ExecutionException delete = assertThrows(
                ExecutionException.class,
                () -> admin.deleteTopics(List.of("secret")).all().get());
        assertInstanceOf(TopicAuthorizationException.class, delete.getCause());

        ExecutionException configs = assertThrows(
                ExecutionException.class,
                () -> admin.describeConfigs(List.of(new ConfigResource(ConfigResource.Type.BROKER, "1")))
                        .all()
                        .get());
        assertInstanceOf(ClusterAuthorizationException.class, configs.getCause());

        assertEquals(
                Set.of(AclOperation.DESCRIBE),
                admin.describeCluster(new DescribeClusterOptions().includeAuthorizedOperations(true))
                        .authorizedOperations()
                        .get());
    }
}
