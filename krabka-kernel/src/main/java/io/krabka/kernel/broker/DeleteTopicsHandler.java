package io.krabka.kernel.broker;

import io.krabka.kernel.controller.Controller;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.WireUuids;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.TopicDeletionDisabledException;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.message.DeleteTopicsRequestData.DeleteTopicState;
import org.apache.kafka.common.message.DeleteTopicsResponseData.DeletableTopicResult;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DeleteTopicsRequest;
import org.apache.kafka.common.resource.Resource;
import org.apache.kafka.common.resource.ResourceType;

/**
 * Answers DeleteTopics through the controller: topics by name (v1-5) or by name or id (v6), one result each. With
 * {@code delete.topic.enable=false} the whole request is refused as Kafka refuses it: INVALID_REQUEST before v3,
 * TOPIC_DELETION_DISABLED from v3. Authorized as Kafka's controller (TOPIC_AUTHORIZATION_FAILED, after the other
 * answers).
 */
public final class DeleteTopicsHandler implements ApiHandler {

    /**
     * The handler's settings.
     *
     * @param deleteTopicEnable {@code delete.topic.enable}
     */
    public record Config(boolean deleteTopicEnable) {}

    private final AuthHelper auth;
    private final Config config;
    private final Controller controller;

    /** A handler deleting topics through {@code controller}. */
    public DeleteTopicsHandler(AuthHelper auth, Config config, Controller controller) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.config = Objects.requireNonNull(config, "config");
        this.controller = Objects.requireNonNull(controller, "controller");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.DELETE_TOPICS;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        if (!config.deleteTopicEnable()) {
            throw request.apiVersion() < 3
                    ? new InvalidRequestException("Topic deletion is disabled.")
                    : new TopicDeletionDisabledException();
        }
        DeleteTopicsRequestData data = ((DeleteTopicsRequest) request.body()).data();
        List<DeletableTopicResult> refused = new ArrayList<>();
        DeleteTopicsRequestData allowed = authorize(request, data, refused);
        return controller.deleteTopics(allowed).thenApply(response -> {
            refused.forEach(result -> response.responses().add(result));
            return Response.send(response.setThrottleTimeMs(0));
        });
    }

    // As Kafka's controller: DELETE on the cluster, or on each topic. A topic named (once, and validly: the rest is
    // the controller's to refuse) that the principal may not DESCRIBE is refused before it is looked up, so its
    // existence is not disclosed; one it may describe but not delete is refused once known to exist. A topic asked
    // for by id is refused with its name only if it may be described (ids are not secret, names are).
    private DeleteTopicsRequestData authorize(
            Request request, DeleteTopicsRequestData data, List<DeletableTopicResult> refused) {
        boolean cluster = auth.authorize(
                request, AclOperation.DELETE, ResourceType.CLUSTER, Resource.CLUSTER_NAME, true, false, 1);
        if (cluster) {
            return data;
        }
        MetadataImage image = controller.image();
        Map<String, Integer> names = new HashMap<>();
        Map<Uuid, Integer> ids = new HashMap<>();
        data.topicNames().forEach(name -> names.merge(name, 1, Integer::sum));
        for (DeleteTopicState topic : data.topics()) {
            if (topic.name() != null && topic.topicId().equals(Uuid.ZERO_UUID)) {
                names.merge(topic.name(), 1, Integer::sum);
            } else if (topic.name() == null && !topic.topicId().equals(Uuid.ZERO_UUID)) {
                ids.merge(topic.topicId(), 1, Integer::sum);
            }
        }
        Map<Uuid, String> idNames = new HashMap<>();
        ids.forEach((id, count) -> {
            if (count == 1) {
                image.topic(WireUuids.fromWire(id)).ifPresent(topic -> idNames.put(id, topic.name()));
            }
        });
        List<String> asked = new ArrayList<>();
        names.forEach((name, count) -> {
            if (count == 1) {
                asked.add(name);
            }
        });
        asked.addAll(idNames.values());
        Predicate<String> describable =
                auth.filterByAuthorized(request, AclOperation.DESCRIBE, ResourceType.TOPIC, asked, Function.identity());
        Predicate<String> deletable =
                auth.filterByAuthorized(request, AclOperation.DELETE, ResourceType.TOPIC, asked, Function.identity());
        Set<String> refusedNames = new HashSet<>();
        Set<Uuid> refusedIds = new HashSet<>();
        names.forEach((name, count) -> {
            if (count == 1 && (!describable.test(name) || (image.topic(name).isPresent() && !deletable.test(name)))) {
                refusedNames.add(name);
                refused.add(refusal(name, Uuid.ZERO_UUID));
            }
        });
        idNames.forEach((id, name) -> {
            if (!deletable.test(name)) {
                refusedIds.add(id);
                refused.add(refusal(describable.test(name) ? name : null, id));
            }
        });
        if (refused.isEmpty()) {
            return data;
        }
        DeleteTopicsRequestData allowed = data.duplicate();
        allowed.topicNames().removeIf(refusedNames::contains);
        allowed.topics()
                .removeIf(topic -> topic.topicId().equals(Uuid.ZERO_UUID)
                        ? topic.name() != null && refusedNames.contains(topic.name())
                        : topic.name() == null && refusedIds.contains(topic.topicId()));
        return allowed;
    }

    private static DeletableTopicResult refusal(String name, Uuid id) {
        return new DeletableTopicResult()
                .setName(name)
                .setTopicId(id)
                .setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code())
                .setErrorMessage(Errors.TOPIC_AUTHORIZATION_FAILED.message());
    }
}
