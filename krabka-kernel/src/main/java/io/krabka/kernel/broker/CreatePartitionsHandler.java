package io.krabka.kernel.broker;

import io.krabka.kernel.controller.Controller;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.message.CreatePartitionsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.CreatePartitionsRequest;

/** Answers CreatePartitions through the controller: per topic Kafka's error, or none once the partitions exist. */
public final class CreatePartitionsHandler implements ApiHandler {

    private final Controller controller;

    /** A handler adding partitions through {@code controller}. */
    public CreatePartitionsHandler(Controller controller) {
        this.controller = Objects.requireNonNull(controller, "controller");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.CREATE_PARTITIONS;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        return controller
                .createPartitions(((CreatePartitionsRequest) request.body()).data())
                .thenApply(results -> Response.send(
                        new CreatePartitionsResponseData().setThrottleTimeMs(0).setResults(results)));
    }
}
