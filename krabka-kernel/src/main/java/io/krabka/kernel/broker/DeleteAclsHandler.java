package io.krabka.kernel.broker;

import io.krabka.kernel.controller.Controller;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.SecurityDisabledException;
import org.apache.kafka.common.message.DeleteAclsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.DeleteAclsRequest;
import org.apache.kafka.common.requests.DeleteAclsResponse;

/**
 * Answers DeleteAcls as Kafka's {@code AclApis} does: ALTER on the cluster required, SECURITY_DISABLED without an
 * authorizer; else the controller deletes what each filter matches and the answer names the ACLs per filter.
 */
public final class DeleteAclsHandler implements ApiHandler {

    private final AuthHelper auth;
    private final Controller controller;

    /** A handler deleting ACLs through {@code controller} when an authorizer is configured. */
    public DeleteAclsHandler(AuthHelper auth, Controller controller) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.controller = Objects.requireNonNull(controller, "controller");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.DELETE_ACLS;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        auth.authorizeClusterOperation(request, AclOperation.ALTER);
        if (!auth.enabled()) {
            throw new SecurityDisabledException("No Authorizer is configured.");
        }
        return controller
                .deleteAcls(((DeleteAclsRequest) request.body()).filters())
                .thenApply(results -> Response.send(new DeleteAclsResponseData()
                        .setThrottleTimeMs(0)
                        .setFilterResults(results.stream()
                                .map(DeleteAclsResponse::filterResult)
                                .toList())));
    }
}
