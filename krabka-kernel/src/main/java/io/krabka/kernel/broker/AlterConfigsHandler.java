package io.krabka.kernel.broker;

import io.krabka.kernel.controller.Controller;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.message.AlterConfigsRequestData;
import org.apache.kafka.common.message.AlterConfigsRequestData.AlterConfigsResource;
import org.apache.kafka.common.message.AlterConfigsResponseData;
import org.apache.kafka.common.message.AlterConfigsResponseData.AlterConfigsResourceResponse;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AlterConfigsRequest;

/**
 * Answers the legacy AlterConfigs through the controller: the whole config set of each topic, broker resource or
 * group is replaced by the one given (keys left out are removed), with Kafka's errors. A resource the principal may
 * not change ({@link AlterConfigsAuthorization}) is answered with its authorization error, in its place.
 */
public final class AlterConfigsHandler implements ApiHandler {

    private final AuthHelper auth;
    private final Controller controller;

    /** A handler replacing configs through {@code controller}. */
    public AlterConfigsHandler(AuthHelper auth, Controller controller) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.controller = Objects.requireNonNull(controller, "controller");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.ALTER_CONFIGS;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        AlterConfigsRequestData data = ((AlterConfigsRequest) request.body()).data();
        List<AlterConfigsResource> resources = List.copyOf(data.resources());
        List<Errors> refusals = AlterConfigsAuthorization.refusals(
                auth,
                request,
                resources,
                AlterConfigsResource::resourceType,
                AlterConfigsResource::resourceName,
                false);
        if (refusals.stream().allMatch(Objects::isNull)) {
            return controller
                    .legacyAlterConfigs(data)
                    .thenApply(response -> Response.send(response.setThrottleTimeMs(0)));
        }
        AlterConfigsRequestData allowed = new AlterConfigsRequestData().setValidateOnly(data.validateOnly());
        AlterConfigsAuthorization.allowed(resources, refusals)
                .forEach(resource -> allowed.resources().add(resource.duplicate()));
        return controller
                .legacyAlterConfigs(allowed)
                .thenApply(answered -> Response.send(new AlterConfigsResponseData()
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
