package io.krabka.kernel.broker;

import io.krabka.kernel.controller.Controller;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.TopicDeletionDisabledException;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.DeleteTopicsRequest;

/**
 * Answers DeleteTopics through the controller: topics by name (v1-5) or by name or id (v6), one result each. With
 * {@code delete.topic.enable=false} the whole request is refused as Kafka refuses it: INVALID_REQUEST before v3,
 * TOPIC_DELETION_DISABLED from v3.
 */
public final class DeleteTopicsHandler implements ApiHandler {

    /**
     * The handler's settings.
     *
     * @param deleteTopicEnable {@code delete.topic.enable}
     */
    public record Config(boolean deleteTopicEnable) {}

    private final Config config;
    private final Controller controller;

    /** A handler deleting topics through {@code controller}. */
    public DeleteTopicsHandler(Config config, Controller controller) {
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
        return controller
                .deleteTopics(((DeleteTopicsRequest) request.body()).data())
                .thenApply(response -> Response.send(response.setThrottleTimeMs(0)));
    }
}
