package io.krabka.kernel.broker;

import io.krabka.kernel.controller.Controller;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import java.util.Iterator;
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
        for (int i = 0; i < resources.size(); i++) {
            if (refusals.get(i) == null) {
                allowed.resources().add(resources.get(i).duplicate());
            }
        }
        // The answers in the request's order, as Kafka reassembles them: the controller answers one per resource.
        return controller.incrementalAlterConfigs(allowed).thenApply(answered -> {
            IncrementalAlterConfigsResponseData response = new IncrementalAlterConfigsResponseData();
            Iterator<AlterConfigsResourceResponse> next = answered.responses().iterator();
            for (int i = 0; i < resources.size(); i++) {
                Errors refused = refusals.get(i);
                response.responses()
                        .add(
                                refused == null
                                        ? next.next()
                                        : new AlterConfigsResourceResponse()
                                                .setResourceType(
                                                        resources.get(i).resourceType())
                                                .setResourceName(
                                                        resources.get(i).resourceName())
                                                .setErrorCode(refused.code())
                                                .setErrorMessage(refused.message()));
            }
            return Response.send(response.setThrottleTimeMs(0));
        });
    }
}
