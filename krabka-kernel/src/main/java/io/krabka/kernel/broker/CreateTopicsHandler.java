package io.krabka.kernel.broker;

import io.krabka.kernel.controller.Controller;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableTopic;
import org.apache.kafka.common.message.CreateTopicsResponseData.CreatableTopicResult;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.CreateTopicsRequest;
import org.apache.kafka.common.resource.Resource;
import org.apache.kafka.common.resource.ResourceType;

/**
 * Answers CreateTopics through the controller, which checks and records the topics (Kafka's broker forwards the
 * request to its controller): per topic Kafka's error or, from v5, the partitions, replication factor and effective
 * configs, and from v7 the topic id. Authorized as Kafka's controller does: CREATE on the cluster, or on each topic
 * (TOPIC_AUTHORIZATION_FAILED, "Authorization failed.", after the other answers); a created topic's partitions,
 * replication factor and configs are shown only with DESCRIBE_CONFIGS on it (TopicConfigErrorCode otherwise).
 */
public final class CreateTopicsHandler implements ApiHandler {

    private final AuthHelper auth;
    private final Controller controller;

    /** A handler creating topics through {@code controller}. */
    public CreateTopicsHandler(AuthHelper auth, Controller controller) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.controller = Objects.requireNonNull(controller, "controller");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.CREATE_TOPICS;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        CreateTopicsRequestData data = ((CreateTopicsRequest) request.body()).data();
        // Names given once (a duplicate is the controller's to refuse), the metadata topic aside (likewise).
        Map<String, Integer> counts = new HashMap<>();
        data.topics().forEach(topic -> counts.merge(topic.name(), 1, Integer::sum));
        Set<String> names = new LinkedHashSet<>();
        for (CreatableTopic topic : data.topics()) {
            if (counts.get(topic.name()) == 1 && !Topic.CLUSTER_METADATA_TOPIC_NAME.equals(topic.name())) {
                names.add(topic.name());
            }
        }
        Predicate<String> creatable = auth.authorize(
                        request, AclOperation.CREATE, ResourceType.CLUSTER, Resource.CLUSTER_NAME, true, false, 1)
                ? name -> true
                : auth.filterByAuthorized(request, AclOperation.CREATE, ResourceType.TOPIC, names, Function.identity());
        Predicate<String> describable = auth.filterByAuthorized(
                request, AclOperation.DESCRIBE_CONFIGS, ResourceType.TOPIC, names, Function.identity(), true, false);
        List<String> refused = names.stream().filter(creatable.negate()).toList();
        CreateTopicsRequestData allowed = data;
        if (!refused.isEmpty()) {
            allowed = data.duplicate();
            allowed.topics().removeIf(topic -> refused.contains(topic.name()));
        }
        return controller.createTopics(allowed).thenApply(response -> {
            for (CreatableTopicResult result : response.topics()) {
                if (result.errorCode() == Errors.NONE.code() && !describable.test(result.name())) {
                    result.setNumPartitions(-1)
                            .setReplicationFactor((short) -1)
                            .setConfigs(null)
                            .setTopicConfigErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code());
                }
            }
            for (String name : refused) {
                response.topics()
                        .add(new CreatableTopicResult()
                                .setName(name)
                                .setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code())
                                .setErrorMessage("Authorization failed."));
            }
            return Response.send(response.setThrottleTimeMs(0));
        });
    }
}
