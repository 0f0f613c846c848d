package io.krabka.kernel.broker;

import io.krabka.kernel.controller.Controller;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.AlterConfigsRequest;

/**
 * Answers the legacy AlterConfigs through the controller: the whole config set of each topic, broker resource or
 * group is replaced by the one given (keys left out are removed), with Kafka's errors.
 */
public final class AlterConfigsHandler implements ApiHandler {

    private final Controller controller;

    /** A handler replacing configs through {@code controller}. */
    public AlterConfigsHandler(Controller controller) {
        this.controller = Objects.requireNonNull(controller, "controller");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.ALTER_CONFIGS;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        return controller
                .legacyAlterConfigs(((AlterConfigsRequest) request.body()).data())
                .thenApply(response -> Response.send(response.setThrottleTimeMs(0)));
    }
}
