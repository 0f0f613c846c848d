package io.krabka.kernel.broker;

import io.krabka.kernel.controller.Controller;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.IncrementalAlterConfigsRequest;

/**
 * Answers IncrementalAlterConfigs through the controller: SET, DELETE, APPEND and SUBTRACT on the configs of topics,
 * broker resources (the dynamic broker configs) and groups, with Kafka's errors.
 */
public final class IncrementalAlterConfigsHandler implements ApiHandler {

    private final Controller controller;

    /** A handler changing configs through {@code controller}. */
    public IncrementalAlterConfigsHandler(Controller controller) {
        this.controller = Objects.requireNonNull(controller, "controller");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.INCREMENTAL_ALTER_CONFIGS;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        return controller
                .incrementalAlterConfigs(((IncrementalAlterConfigsRequest) request.body()).data())
                .thenApply(response -> Response.send(response.setThrottleTimeMs(0)));
    }
}
