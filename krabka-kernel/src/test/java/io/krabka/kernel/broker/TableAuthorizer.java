package io.krabka.kernel.broker;

import io.krabka.kernel.security.Authorizer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.server.authorizer.Action;
import org.apache.kafka.server.authorizer.AuthorizableRequestContext;
import org.apache.kafka.server.authorizer.AuthorizationResult;

/**
 * An authorizer for the handlers' tests: a table of what each principal may do (an operation on a literal resource, or
 * on every resource of a type), nothing implied, and a record of every action it was asked, with its log flags and
 * reference count.
 */
final class TableAuthorizer implements Authorizer {

    /** A principal of the tests. */
    static final KafkaPrincipal ALICE = new KafkaPrincipal(KafkaPrincipal.USER_TYPE, "alice");
    /** Another. */
    static final KafkaPrincipal BOB = new KafkaPrincipal(KafkaPrincipal.USER_TYPE, "bob");

    /** The resource name that stands for every resource of its type in {@link #allow}. */
    static final String ANY = "*";

    private record Grant(KafkaPrincipal principal, AclOperation operation, ResourceType type, String name) {}

    private final Set<Grant> grants = new HashSet<>();
    private final List<Action> asked = new ArrayList<>();

    /** Lets {@code principal} do {@code operation} on the named resource ({@link #ANY}: every one of the type). */
    TableAuthorizer allow(KafkaPrincipal principal, AclOperation operation, ResourceType type, String name) {
        grants.add(new Grant(principal, operation, type, name));
        return this;
    }

    /** Every action asked so far, in order. */
    synchronized List<Action> asked() {
        return List.copyOf(asked);
    }

    @Override
    public synchronized List<AuthorizationResult> authorize(AuthorizableRequestContext context, List<Action> actions) {
        asked.addAll(actions);
        return actions.stream()
                .map(action -> allowed(context.principal(), action.operation(), action.resourcePattern())
                        ? AuthorizationResult.ALLOWED
                        : AuthorizationResult.DENIED)
                .toList();
    }

    @Override
    public synchronized AuthorizationResult authorizeByResourceType(
            AuthorizableRequestContext context, AclOperation operation, ResourceType resourceType) {
        return grants.stream()
                        .anyMatch(grant -> grant.principal().equals(context.principal())
                                && grant.operation() == operation
                                && grant.type() == resourceType)
                ? AuthorizationResult.ALLOWED
                : AuthorizationResult.DENIED;
    }

    private boolean allowed(KafkaPrincipal principal, AclOperation operation, ResourcePattern resource) {
        return grants.contains(new Grant(principal, operation, resource.resourceType(), resource.name()))
                || grants.contains(new Grant(principal, operation, resource.resourceType(), ANY));
    }
}
