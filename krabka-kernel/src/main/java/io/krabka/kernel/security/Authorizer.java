package io.krabka.kernel.security;

import java.util.List;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.server.authorizer.Action;
import org.apache.kafka.server.authorizer.AuthorizableRequestContext;
import org.apache.kafka.server.authorizer.AuthorizationResult;

/**
 * Decides whether a request's principal may do what it asks, with the semantics of Kafka's {@code Authorizer}
 * (StandardAuthorizer's when {@code authorizer.class.name} names it).
 */
public interface Authorizer {

    /** One result per action, in the actions' order. */
    List<AuthorizationResult> authorize(AuthorizableRequestContext context, List<Action> actions);

    /**
     * Whether the principal may do {@code operation} on at least one resource of {@code resourceType}: Kafka's
     * {@code authorizeByResourceType} (an idempotent producer's InitProducerId, for one).
     */
    AuthorizationResult authorizeByResourceType(
            AuthorizableRequestContext context, AclOperation operation, ResourceType resourceType);
}
