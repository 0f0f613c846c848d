package io.krabka.kernel.broker;

import io.krabka.kernel.controller.Controller;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.CreatePartitionsRequestData;
import org.apache.kafka.common.message.CreatePartitionsRequestData.CreatePartitionsTopic;
import org.apache.kafka.common.message.CreatePartitionsResponseData;
import org.apache.kafka.common.message.CreatePartitionsResponseData.CreatePartitionsTopicResult;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.CreatePartitionsRequest;
import org.apache.kafka.common.resource.ResourceType;

/**
 * Answers CreatePartitions through the controller: per topic Kafka's error, or none once the partitions exist. A topic
 * the principal may not ALTER is TOPIC_AUTHORIZATION_FAILED, as Kafka's controller answers.
 */
public final class CreatePartitionsHandler implements ApiHandler {

    private final AuthHelper auth;
    private final Controller controller;

    /** A handler adding partitions through {@code controller}. */
    public CreatePartitionsHandler(AuthHelper auth, Controller controller) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.controller = Objects.requireNonNull(controller, "controller");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.CREATE_PARTITIONS;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        CreatePartitionsRequestData data = ((CreatePartitionsRequest) request.body()).data();
        // ALTER on each topic named once (a duplicate is the controller's to refuse); Kafka answers the refused
        // topics before the controller's results.
        Map<String, Integer> counts = new HashMap<>();
        data.topics().forEach(topic -> counts.merge(topic.name(), 1, Integer::sum));
        List<String> once = data.topics().stream()
                .map(CreatePartitionsTopic::name)
                .filter(name -> counts.get(name) == 1)
                .toList();
        Predicate<String> alterable =
                auth.filterByAuthorized(request, AclOperation.ALTER, ResourceType.TOPIC, once, Function.identity());
        List<CreatePartitionsTopicResult> refused = new ArrayList<>();
        for (String name : once) {
            if (!alterable.test(name)) {
                refused.add(new CreatePartitionsTopicResult()
                        .setName(name)
                        .setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code()));
            }
        }
        CreatePartitionsRequestData allowed = data;
        if (!refused.isEmpty()) {
            allowed = data.duplicate();
            allowed.topics().removeIf(topic -> counts.get(topic.name()) == 1 && !alterable.test(topic.name()));
        }
        return controller.createPartitions(allowed).thenApply(results -> {
            List<CreatePartitionsTopicResult> all = new ArrayList<>(refused);
            all.addAll(results);
            return Response.send(
                    new CreatePartitionsResponseData().setThrottleTimeMs(0).setResults(all));
        });
    }
}
