package io.krabka.kernel.broker;

import io.krabka.kernel.controller.Controller;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.CreateTopicsRequest;

/**
 * Answers CreateTopics through the controller, which checks and records the topics (Kafka's broker forwards the
 * request to its controller): per topic Kafka's error or, from v5, the partitions, replication factor and effective
 * configs, and from v7 the topic id.
 */
public final class CreateTopicsHandler implements ApiHandler {

    private final Controller controller;

    /** A handler creating topics through {@code controller}. */
    public CreateTopicsHandler(Controller controller) {
        this.controller = Objects.requireNonNull(controller, "controller");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.CREATE_TOPICS;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        return controller
                .createTopics(((CreateTopicsRequest) request.body()).data())
                .thenApply(response -> Response.send(response.setThrottleTimeMs(0)));
    }
}
