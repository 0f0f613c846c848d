package io.krabka.kernel.broker;

import io.krabka.kernel.controller.Controller;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData.AlterConfigsResource;
import org.apache.kafka.common.message.IncrementalAlterConfigsResponseData;
import org.apache.kafka.common.message.IncrementalAlterConfigsResponseData.AlterConfigsResourceResponse;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.IncrementalAlterConfigsRequest;

/**
 * Answers IncrementalAlterConfigs through the controller: SET, DELETE, APPEND and SUBTRACT on the configs of topics,
 * broker resources (the dynamic broker configs) and groups, with Kafka's errors. A resource the principal may not
 * change ({@link AlterConfigsAuthorization}) is answered with its authorization error, in its place.
 */
public final class IncrementalAlterConfigsHandler implements ApiHandler {

    private final AuthHelper auth;
    private final Controller controller;

    /** A handler changing configs through {@code controller}. */
    public IncrementalAlterConfigsHandler(AuthHelper auth, Controller controller) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.controller = Objects.requireNonNull(controller, "controller");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.INCREMENTAL_ALTER_CONFIGS;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        IncrementalAlterConfigsRequestData data = ((IncrementalAlterConfigsRequest) request.body()).data();
        List<AlterConfigsResource> resources = List.copyOf(data.resources());
        List<Errors> refusals = AlterConfigsAuthorization.refusals(
                auth, request, resources, AlterConfigsResource::resourceType, AlterConfigsResource::resourceName, true);
        if (refusals.stream().allMatch(Objects::isNull)) {
            return controller
                    .incrementalAlterConfigs(data)
                    .thenApply(response -> Response.send(response.setThrottleTimeMs(0)));
        }
        IncrementalAlterConfigsRequestData allowed =
                new IncrementalAlterConfigsRequestData().setValidateOnly(data.validateOnly());
        AlterConfigsAuthorization.allowed(resources, refusals)
                .forEach(resource -> allowed.resources().add(resource.duplicate()));
        return controller
                .incrementalAlterConfigs(allowed)
                .thenApply(answered -> Response.send(new IncrementalAlterConfigsResponseData()
                        .setThrottleTimeMs(0)
                        .setResponses(AlterConfigsAuthorization.inRequestOrder(
                                resources,
                                refusals,
                                answered.responses(),
                                (resource, refused) -> new AlterConfigsResourceResponse()
                                        .setResourceType(resource.resourceType())
                                        .setResourceName(resource.resourceName())
                                        .setErrorCode(refused.code())
                                        .setErrorMessage(refused.message())))));
    }
}
