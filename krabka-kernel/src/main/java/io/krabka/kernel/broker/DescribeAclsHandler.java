package io.krabka.kernel.broker;

import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.StandardAcl;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.DescribeAclsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DescribeAclsRequest;
import org.apache.kafka.common.requests.DescribeAclsResponse;

/**
 * Answers DescribeAcls as Kafka's {@code AclApis} does: DESCRIBE on the cluster required, SECURITY_DISABLED
 * without an authorizer; else the ACLs of the metadata the filter matches, grouped by resource.
 */
public final class DescribeAclsHandler implements ApiHandler {

    private final AuthHelper auth;
    private final Supplier<MetadataImage> metadata;

    /** A handler describing the ACLs of {@code metadata} when an authorizer is configured. */
    public DescribeAclsHandler(AuthHelper auth, Supplier<MetadataImage> metadata) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.metadata = Objects.requireNonNull(metadata, "metadata");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.DESCRIBE_ACLS;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        auth.authorizeClusterOperation(request, AclOperation.DESCRIBE);
        if (!auth.enabled()) {
            return CompletableFuture.completedFuture(Response.send(new DescribeAclsResponseData()
                    .setThrottleTimeMs(0)
                    .setErrorCode(Errors.SECURITY_DISABLED.code())
                    .setErrorMessage("No Authorizer is configured on the broker")));
        }
        AclBindingFilter filter = ((DescribeAclsRequest) request.body()).filter();
        List<AclBinding> matching = metadata.get().acls().acls().values().stream()
                .map(StandardAcl::toBinding)
                .filter(filter::matches)
                .toList();
        return CompletableFuture.completedFuture(Response.send(new DescribeAclsResponseData()
                .setThrottleTimeMs(0)
                .setResources(DescribeAclsResponse.aclsResources(matching))));
    }
}
