package io.krabka.kernel.security;

import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.server.authorizer.Action;
import org.apache.kafka.server.authorizer.AuthorizableRequestContext;
import org.apache.kafka.server.authorizer.AuthorizationResult;

/**
 * Kafka's {@code AuthHelper} for the cluster resource {@code kafka-cluster}: whether a request may do an operation
 * on the cluster, allowed when no authorizer is configured, logged as a request's own action.
 */
public final class ClusterAuthorization {

    /** The name of the one cluster resource. */
    public static final String CLUSTER_NAME = "kafka-cluster";

    private ClusterAuthorization() {}

    /** Whether {@code context} may do {@code operation} on the cluster. */
    public static boolean authorized(
            Optional<Authorizer> authorizer, AuthorizableRequestContext context, AclOperation operation) {
        if (authorizer.isEmpty()) {
            return true;
        }
        Action action = new Action(
                operation, new ResourcePattern(ResourceType.CLUSTER, CLUSTER_NAME, PatternType.LITERAL), 1, true, true);
        return authorizer.get().authorize(context, List.of(action)).getFirst() == AuthorizationResult.ALLOWED;
    }

    /**
     * Kafka's {@code authorizeClusterOperation}: returns if allowed.
     *
     * @throws ClusterAuthorizationException if not, which answers the request with CLUSTER_AUTHORIZATION_FAILED
     */
    public static void authorizeClusterOperation(
            Optional<Authorizer> authorizer, AuthorizableRequestContext context, AclOperation operation) {
        if (!authorized(authorizer, context, operation)) {
            throw new ClusterAuthorizationException(
                    "Request " + ApiKeys.forId(context.requestType()).name + " is not authorized.");
        }
    }
}
