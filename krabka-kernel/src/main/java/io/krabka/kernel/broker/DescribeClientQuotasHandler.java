package io.krabka.kernel.broker;

import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.UnsupportedVersionException;
import org.apache.kafka.common.message.DescribeClientQuotasRequestData;
import org.apache.kafka.common.message.DescribeClientQuotasRequestData.ComponentData;
import org.apache.kafka.common.message.DescribeClientQuotasResponseData;
import org.apache.kafka.common.message.DescribeClientQuotasResponseData.EntityData;
import org.apache.kafka.common.message.DescribeClientQuotasResponseData.EntryData;
import org.apache.kafka.common.message.DescribeClientQuotasResponseData.ValueData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.quota.ClientQuotaEntity;
import org.apache.kafka.common.requests.DescribeClientQuotasRequest;

/**
 * Answers DescribeClientQuotas from the metadata's client quotas as Kafka does ({@code KafkaApis} and
 * {@code ClientQuotasImage.describe}): DESCRIBE_CONFIGS on the cluster required (else CLUSTER_AUTHORIZATION_FAILED);
 * the filter's components match an entity type by exact name, as the default, or by any name, and a strict filter
 * only entities of no other type. A bad filter (an empty or repeated type, a match string where its match type
 * takes none, ip with user or client-id) is INVALID_REQUEST, a type Kafka does not know UNSUPPORTED_VERSION, each
 * with Kafka's message. Krabka does not enforce quotas: this shows those a Kafka cluster set before a takeover.
 */
public final class DescribeClientQuotasHandler implements ApiHandler {

    private final AuthHelper auth;
    private final Supplier<MetadataImage> metadata;

    /** A handler describing the client quotas of {@code metadata}. */
    public DescribeClientQuotasHandler(AuthHelper auth, Supplier<MetadataImage> metadata) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.metadata = Objects.requireNonNull(metadata, "metadata");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.DESCRIBE_CLIENT_QUOTAS;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        // Kafka answers with the error code alone (its exception's default message), not authorizeClusterOperation's.
        if (!auth.authorizeCluster(request, AclOperation.DESCRIBE_CONFIGS)) {
            throw Errors.CLUSTER_AUTHORIZATION_FAILED.exception();
        }
        DescribeClientQuotasRequestData data = ((DescribeClientQuotasRequest) request.body()).data();
        Map<String, String> exact = new HashMap<>();
        Set<String> specified = new HashSet<>();
        for (ComponentData component : data.components()) {
            addComponent(component, exact, specified);
        }
        if (has(ClientQuotaEntity.IP, exact, specified)
                && (has(ClientQuotaEntity.USER, exact, specified)
                        || has(ClientQuotaEntity.CLIENT_ID, exact, specified))) {
            throw new InvalidRequestException("Invalid entity filter component combination. IP filter component "
                    + "should not be used with user or clientId filter component.");
        }
        DescribeClientQuotasResponseData response = new DescribeClientQuotasResponseData();
        metadata.get().clientQuotas().matching(exact, specified, data.strict()).forEach((entity, quotas) -> {
            EntryData entry = new EntryData();
            entity.entries()
                    .forEach((type, name) -> entry.entity()
                            .add(new EntityData().setEntityType(type).setEntityName(name)));
            quotas.forEach((key, value) ->
                    entry.values().add(new ValueData().setKey(key).setValue(value)));
            response.entries().add(entry);
        });
        return CompletableFuture.completedFuture(Response.send(response.setThrottleTimeMs(0)));
    }

    private static void addComponent(ComponentData component, Map<String, String> exact, Set<String> specified) {
        String type = component.entityType();
        if (type.isEmpty()) {
            throw new InvalidRequestException("Invalid empty entity type.");
        }
        if (has(type, exact, specified)) {
            throw new InvalidRequestException("Entity type " + type + " cannot appear more than once in the filter.");
        }
        if (!type.equals(ClientQuotaEntity.IP)
                && !type.equals(ClientQuotaEntity.USER)
                && !type.equals(ClientQuotaEntity.CLIENT_ID)) {
            throw new UnsupportedVersionException("Unsupported entity type " + type);
        }
        switch (component.matchType()) {
            case DescribeClientQuotasRequest.MATCH_TYPE_EXACT -> {
                if (component.match() == null) {
                    throw new InvalidRequestException(
                            "Request specified MATCH_TYPE_EXACT, but set match string to null.");
                }
                exact.put(type, component.match());
            }
            case DescribeClientQuotasRequest.MATCH_TYPE_DEFAULT -> {
                if (component.match() != null) {
                    throw new InvalidRequestException(
                            "Request specified MATCH_TYPE_DEFAULT, but also specified a match string.");
                }
                exact.put(type, null);
            }
            case DescribeClientQuotasRequest.MATCH_TYPE_SPECIFIED -> {
                if (component.match() != null) {
                    throw new InvalidRequestException(
                            "Request specified MATCH_TYPE_SPECIFIED, but also specified a match string.");
                }
                specified.add(type);
            }
            default -> throw new InvalidRequestException("Unknown match type " + component.matchType());
        }
    }

    private static boolean has(String type, Map<String, String> exact, Set<String> specified) {
        return exact.containsKey(type) || specified.contains(type);
    }
}
