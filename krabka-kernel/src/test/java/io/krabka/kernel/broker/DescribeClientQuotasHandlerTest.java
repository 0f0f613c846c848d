package io.krabka.kernel.broker;

import static io.krabka.kernel.broker.TableAuthorizer.ALICE;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.krabka.kernel.controller.Controllers;
import io.krabka.kernel.metadata.ClientQuotaRecord;
import io.krabka.kernel.metadata.ClientQuotaRecord.EntityData;
import io.krabka.kernel.metadata.MetadataRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.message.DescribeClientQuotasRequestData;
import org.apache.kafka.common.message.DescribeClientQuotasRequestData.ComponentData;
import org.apache.kafka.common.message.DescribeClientQuotasResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.requests.DescribeClientQuotasRequest;
import org.apache.kafka.common.resource.Resource;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.image.ClientQuotaImage;
import org.apache.kafka.image.ClientQuotasImage;
import org.apache.kafka.server.authorizer.Action;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * DescribeClientQuotas over quotas a Kafka controller left in the metadata log, replayed by a real controller: each
 * filter (exact names, defaults, any name, strict or not) and each bad one gets, at both versions, the answer Kafka
 * 4.4's own {@code ClientQuotasImage.describe} gives over the same quotas; without DESCRIBE_CONFIGS on the cluster the
 * request is refused as Kafka refuses it.
 */
class DescribeClientQuotasHandlerTest {

    private static final List<MetadataRecord> QUOTAS = List.of(
            quota("producer_byte_rate", 1024, "user", "alice"),
            quota("consumer_byte_rate", 2048, "user", "alice", "client-id", "app"),
            quota("producer_byte_rate", 512, "user", null),
            quota("request_percentage", 25, "user", null, "client-id", null),
            quota("request_percentage", 50, "client-id", "app"),
            quota("connection_creation_rate", 10, "ip", "10.0.0.7"),
            quota("connection_creation_rate", 20, "ip", null),
            quota("producer_byte_rate", 1, "user", "gone"),
            new ClientQuotaRecord(List.of(new EntityData("user", "gone")), "producer_byte_rate", 0, true));

    @TempDir
    Path dir;

    private Controllers controllers;
    private final TableAuthorizer authorizer = new TableAuthorizer();
    private DescribeClientQuotasHandler handler;

    @BeforeEach
    void start() throws Exception {
        controllers = Controllers.formatAndStart(dir, Map.of());
        controllers.controller().close();
        Controllers.appendToMetadataLog(dir, QUOTAS);
        controllers.restart();
        handler = new DescribeClientQuotasHandler(
                new AuthHelper(Optional.of(authorizer)), controllers.controller()::image);
    }

    @AfterEach
    void stop() throws Exception {
        controllers.close();
    }

    @Test
    void filtersMatchAsKafkasAndKafkasErrorsAreAnswered() throws Exception {
        authorizer.allow(ALICE, AclOperation.DESCRIBE_CONFIGS, ResourceType.CLUSTER, Resource.CLUSTER_NAME);
        assertEquals(
                Map.of(
                        entity("user", "alice"), Map.of("producer_byte_rate", 1024.0),
                        entity("user", "alice", "client-id", "app"), Map.of("consumer_byte_rate", 2048.0)),
                describe(false, exact("user", "alice")));
        assertEquals(
                Map.of(entity("user", "alice"), Map.of("producer_byte_rate", 1024.0)),
                describe(true, exact("user", "alice")));
        assertEquals(
                Map.of(entity("user", null), Map.of("producer_byte_rate", 512.0)),
                describe(true, component("user", DescribeClientQuotasRequest.MATCH_TYPE_DEFAULT, null)));
        assertEquals(7, describe(false).size(), "every entity with a quota left: not the one whose quota was removed");
        assertEquals(
                Map.of(
                        entity("ip", "10.0.0.7"),
                        Map.of("connection_creation_rate", 10.0),
                        entity("ip", null),
                        Map.of("connection_creation_rate", 20.0)),
                describe(true, specified("ip")),
                "any name, the default too");

        ClientQuotasImage kafka = kafkaImage();
        List<DescribeClientQuotasRequestData> filters = List.of(
                filter(false),
                filter(true),
                filter(false, exact("user", "alice")),
                filter(true, exact("user", "alice")),
                filter(false, exact("user", "nobody")),
                filter(false, component("user", DescribeClientQuotasRequest.MATCH_TYPE_DEFAULT, null)),
                filter(true, component("user", DescribeClientQuotasRequest.MATCH_TYPE_DEFAULT, null)),
                filter(false, specified("user")),
                filter(true, specified("user")),
                filter(true, exact("user", "alice"), specified("client-id")),
                filter(
                        true,
                        component("user", DescribeClientQuotasRequest.MATCH_TYPE_DEFAULT, null),
                        component("client-id", DescribeClientQuotasRequest.MATCH_TYPE_DEFAULT, null)),
                filter(false, exact("client-id", "app")),
                filter(true, exact("client-id", "app")),
                filter(false, specified("ip")),
                filter(true, exact("ip", "10.0.0.7")),
                // Refused: an empty type, a type twice, a type Kafka does not know, a match string where the match
                // type takes none or none where it takes one, an unknown match type, ip with user or client-id.
                filter(false, exact("", "x")),
                filter(false, exact("user", "alice"), specified("user")),
                filter(false, exact("group", "g")),
                filter(false, component("user", DescribeClientQuotasRequest.MATCH_TYPE_EXACT, null)),
                filter(false, component("user", DescribeClientQuotasRequest.MATCH_TYPE_DEFAULT, "alice")),
                filter(false, component("user", DescribeClientQuotasRequest.MATCH_TYPE_SPECIFIED, "alice")),
                filter(false, component("user", (byte) 3, null)),
                filter(false, exact("ip", "10.0.0.7"), specified("client-id")),
                filter(false, specified("user"), exact("ip", "10.0.0.7")));
        for (DescribeClientQuotasRequestData request : filters) {
            for (short version = 0; version <= 1; version++) {
                DescribeClientQuotasResponseData ours =
                        Requests.callAs(ALICE, handler, ApiKeys.DESCRIBE_CLIENT_QUOTAS, request, version);
                assertEquals(kafkaAnswer(kafka, request), answer(ours), request + " v" + version);
            }
        }
    }

    @Test
    void withoutDescribeConfigsOnTheClusterTheRequestIsRefused() throws Exception {
        authorizer.allow(ALICE, AclOperation.DESCRIBE, ResourceType.CLUSTER, Resource.CLUSTER_NAME);
        DescribeClientQuotasResponseData refused = Requests.callAs(
                ALICE, handler, ApiKeys.DESCRIBE_CLIENT_QUOTAS, new DescribeClientQuotasRequestData(), 1);
        assertEquals(Errors.CLUSTER_AUTHORIZATION_FAILED.code(), refused.errorCode());
        assertNull(refused.errorMessage(), "Kafka's answer: the code alone, not authorizeClusterOperation's message");
        assertNull(refused.entries());
        Action asked = authorizer.asked().getLast();
        assertEquals(AclOperation.DESCRIBE_CONFIGS, asked.operation());
        assertEquals(ResourceType.CLUSTER, asked.resourcePattern().resourceType());
        assertEquals(Resource.CLUSTER_NAME, asked.resourcePattern().name());
    }

    private Map<ClientQuotaEntity, Map<String, Double>> describe(boolean strict, ComponentData... components)
            throws Exception {
        Object answer =
                answer(Requests.callAs(ALICE, handler, ApiKeys.DESCRIBE_CLIENT_QUOTAS, filter(strict, components), 1));
        @SuppressWarnings("unchecked")
        Map<ClientQuotaEntity, Map<String, Double>> entries = (Map<ClientQuotaEntity, Map<String, Double>>) answer;
        return entries;
    }

    // Kafka's image of the quotas the controller replayed.
    private ClientQuotasImage kafkaImage() {
        Map<ClientQuotaEntity, ClientQuotaImage> entities = new HashMap<>();
        controllers
                .controller()
                .image()
                .clientQuotas()
                .entities()
                .forEach((entity, quotas) -> entities.put(entity, new ClientQuotaImage(quotas)));
        return new ClientQuotasImage(entities);
    }

    private static Object kafkaAnswer(ClientQuotasImage kafka, DescribeClientQuotasRequestData request) {
        try {
            return answer(kafka.describe(request));
        } catch (ApiException e) {
            return Errors.forException(e) + ": " + e.getMessage();
        }
    }

    /** The entries as entity to quotas, or the error code and message. */
    private static Object answer(DescribeClientQuotasResponseData response) {
        if (response.errorCode() != Errors.NONE.code()) {
            return Errors.forCode(response.errorCode()) + ": " + response.errorMessage();
        }
        Map<ClientQuotaEntity, Map<String, Double>> entries = new HashMap<>();
        response.entries().forEach(entry -> {
            Map<String, String> entity = new HashMap<>();
            entry.entity().forEach(part -> entity.put(part.entityType(), part.entityName()));
            Map<String, Double> values = new HashMap<>();
            entry.values().forEach(value -> values.put(value.key(), value.value()));
            entries.put(new ClientQuotaEntity(entity), values);
        });
        return entries;
    }

    private static DescribeClientQuotasRequestData filter(boolean strict, ComponentData... components) {
        return new DescribeClientQuotasRequestData()
                .setStrict(strict)
                .setComponents(new ArrayList<>(Arrays.asList(components)));
    }

    private static ComponentData component(String type, byte matchType, String match) {
        return new ComponentData().setEntityType(type).setMatchType(matchType).setMatch(match);
    }

    private static ComponentData exact(String type, String name) {
        return component(type, DescribeClientQuotasRequest.MATCH_TYPE_EXACT, name);
    }

    private static ComponentData specified(String type) {
        return component(type, DescribeClientQuotasRequest.MATCH_TYPE_SPECIFIED, null);
    }

    /** The entity of type and name pairs; a null name is the type's default. */
    static ClientQuotaEntity entity(String... typesAndNames) {
        Map<String, String> entries = new HashMap<>();
        for (int i = 0; i < typesAndNames.length; i += 2) {
            entries.put(typesAndNames[i], typesAndNames[i + 1]);
        }
        return new ClientQuotaEntity(entries);
    }

    private static ClientQuotaRecord quota(String key, double value, String... typesAndNames) {
        List<EntityData> entity = new ArrayList<>();
        for (int i = 0; i < typesAndNames.length; i += 2) {
            entity.add(new EntityData(typesAndNames[i], typesAndNames[i + 1]));
        }
        return new ClientQuotaRecord(entity, key, value, false);
    }
}
