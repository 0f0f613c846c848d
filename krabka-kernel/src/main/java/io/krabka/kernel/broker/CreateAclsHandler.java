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
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.SecurityDisabledException;
import org.apache.kafka.common.message.CreateAclsResponseData;
import org.apache.kafka.common.message.CreateAclsResponseData.AclCreationResult;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.ApiError;
import org.apache.kafka.common.requests.CreateAclsRequest;
import org.apache.kafka.common.resource.Resource;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.server.authorizer.AclCreateResult;

/**
 * Answers CreateAcls as Kafka's {@code AclApis} does: ALTER on the cluster required, SECURITY_DISABLED without an
 * authorizer; a CLUSTER ACL must name {@code kafka-cluster} and every ACL a resource; the others go to the
 * controller, which checks the rest. One result per ACL, in order.
 */
public final class CreateAclsHandler implements ApiHandler {

    private final AuthHelper auth;
    private final Controller controller;

    /** A handler creating ACLs through {@code controller} when an authorizer is configured. */
    public CreateAclsHandler(AuthHelper auth, Controller controller) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.controller = Objects.requireNonNull(controller, "controller");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.CREATE_ACLS;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        auth.authorizeClusterOperation(request, AclOperation.ALTER);
        if (!auth.enabled()) {
            throw new SecurityDisabledException("No Authorizer is configured.");
        }
        List<AclBinding> all = ((CreateAclsRequest) request.body())
                .aclCreations().stream().map(CreateAclsRequest::aclBinding).toList();
        Map<Integer, ApiException> refused = new HashMap<>();
        List<AclBinding> valid = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            AclBinding acl = all.get(i);
            if (acl.pattern().resourceType() == ResourceType.CLUSTER
                    && !acl.pattern().name().equals(Resource.CLUSTER_NAME)) {
                refused.put(
                        i,
                        new InvalidRequestException(
                                "The only valid name for the CLUSTER resource is " + Resource.CLUSTER_NAME));
            } else if (acl.pattern().name().isEmpty()) {
                refused.put(i, new InvalidRequestException("Invalid empty resource name"));
            } else {
                valid.add(acl);
            }
        }
        return controller.createAcls(valid).thenApply(created -> {
            List<AclCreationResult> results = new ArrayList<>(all.size());
            int next = 0;
            for (int i = 0; i < all.size(); i++) {
                ApiException error = refused.get(i);
                AclCreateResult result = error != null ? new AclCreateResult(error) : created.get(next++);
                AclCreationResult wire = new AclCreationResult();
                result.exception().ifPresent(e -> {
                    ApiError apiError = ApiError.fromThrowable(e);
                    wire.setErrorCode(apiError.error().code()).setErrorMessage(apiError.message());
                });
                results.add(wire);
            }
            return Response.send(
                    new CreateAclsResponseData().setThrottleTimeMs(0).setResults(results));
        });
    }
}
