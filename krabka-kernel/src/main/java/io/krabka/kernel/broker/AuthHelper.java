package io.krabka.kernel.broker;

import io.krabka.kernel.network.Request;
import io.krabka.kernel.security.Authorizer;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.Resource;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.server.authorizer.Action;
import org.apache.kafka.server.authorizer.AuthorizationResult;

/**
 * The handlers' questions to the authorizer, asked as Kafka's {@code AuthHelper} asks them: literal resources, the
 * {@code logIfAllowed}/{@code logIfDenied} flags and reference counts {@code KafkaApis} passes (the audit log reads
 * them), and every answer "allowed" when no authorizer is configured, without building an action.
 */
public final class AuthHelper {

    /** No authorizer: everything is allowed, as in Kafka without {@code authorizer.class.name}. */
    public static final AuthHelper NONE = new AuthHelper(Optional.empty());

    private final Authorizer authorizer;

    /** Asks {@code authorizer}, or allows everything when it is empty. */
    public AuthHelper(Optional<Authorizer> authorizer) {
        this.authorizer = Objects.requireNonNull(authorizer, "authorizer").orElse(null);
    }

    /** Whether an authorizer is configured: the ACL APIs answer SECURITY_DISABLED without one, as Kafka's. */
    boolean enabled() {
        return authorizer != null;
    }

    /** Whether {@code request}'s principal may do {@code operation} on the named resource; logged either way. */
    boolean authorize(Request request, AclOperation operation, ResourceType type, String name) {
        return authorize(request, operation, type, name, true, true, 1);
    }

    /** Whether {@code request}'s principal may do {@code operation} on the named resource. */
    boolean authorize(
            Request request,
            AclOperation operation,
            ResourceType type,
            String name,
            boolean logIfAllowed,
            boolean logIfDenied,
            int refCount) {
        if (authorizer == null) {
            return true;
        }
        Action action = new Action(operation, literal(type, name), refCount, logIfAllowed, logIfDenied);
        return authorizer.authorize(request, List.of(action)).getFirst() == AuthorizationResult.ALLOWED;
    }

    /** Whether {@code request}'s principal may do {@code operation} on the cluster; logged either way. */
    boolean authorizeCluster(Request request, AclOperation operation) {
        return authorize(request, operation, ResourceType.CLUSTER, Resource.CLUSTER_NAME);
    }

    /**
     * Refuses the whole request unless its principal may do {@code operation} on the cluster: Kafka's
     * {@code authorizeClusterOperation}, answered with the request's error response (CLUSTER_AUTHORIZATION_FAILED).
     */
    void authorizeClusterOperation(Request request, AclOperation operation) {
        if (!authorizeCluster(request, operation)) {
            throw new ClusterAuthorizationException("Request " + describe(request) + " is not authorized.");
        }
    }

    /** Whether the principal may do {@code operation} on some resource of {@code type} (Kafka's by-resource-type). */
    boolean authorizeByResourceType(Request request, AclOperation operation, ResourceType type) {
        return authorizer == null
                || authorizer.authorizeByResourceType(request, operation, type) == AuthorizationResult.ALLOWED;
    }

    /**
     * The names among {@code items} the principal may do {@code operation} on, as a test: one action per distinct
     * name, whose reference count is how many items bear it (Kafka's {@code filterByAuthorized}); an item without a
     * name (a topic id the metadata does not know) names no resource.
     */
    <T> Predicate<String> filterByAuthorized(
            Request request, AclOperation operation, ResourceType type, Collection<T> items, Function<T, String> name) {
        return filterByAuthorized(request, operation, type, items, name, true, true);
    }

    /** As {@link #filterByAuthorized(Request, AclOperation, ResourceType, Collection, Function)}, with the log flags. */
    <T> Predicate<String> filterByAuthorized(
            Request request,
            AclOperation operation,
            ResourceType type,
            Collection<T> items,
            Function<T, String> name,
            boolean logIfAllowed,
            boolean logIfDenied) {
        if (authorizer == null) {
            return _ -> true;
        }
        Map<String, Integer> counts = new LinkedHashMap<>();
        for (T item : items) {
            String resource = name.apply(item);
            if (resource != null) {
                counts.merge(resource, 1, Integer::sum);
            }
        }
        List<Action> actions = new ArrayList<>(counts.size());
        counts.forEach((resource, count) ->
                actions.add(new Action(operation, literal(type, resource), count, logIfAllowed, logIfDenied)));
        List<AuthorizationResult> results = authorizer.authorize(request, actions);
        Set<String> allowed = new HashSet<>();
        for (int i = 0; i < actions.size(); i++) {
            if (results.get(i) == AuthorizationResult.ALLOWED) {
                allowed.add(actions.get(i).resourcePattern().name());
            }
        }
        return resource -> resource != null && allowed.contains(resource);
    }

    /**
     * The operations of {@code type} the principal may do on the named resource, as the 32-bit field; every supported
     * operation without an authorizer. Asked without logging, as Kafka asks.
     */
    int authorizedOperations(Request request, ResourceType type, String name) {
        if (authorizer == null) {
            return AuthorizedOperations.all(type);
        }
        List<AclOperation> supported = AuthorizedOperations.supported(type);
        ResourcePattern resource = literal(type, name);
        List<Action> actions = supported.stream()
                .map(operation -> new Action(operation, resource, 1, false, false))
                .toList();
        List<AuthorizationResult> results = authorizer.authorize(request, actions);
        List<AclOperation> allowed = new ArrayList<>();
        for (int i = 0; i < supported.size(); i++) {
            if (results.get(i) == AuthorizationResult.ALLOWED) {
                allowed.add(supported.get(i));
            }
        }
        return AuthorizedOperations.field(allowed);
    }

    // Kafka renders its request object here: connection, session and listener.
    private static String describe(Request request) {
        return "Request(connectionId=" + request.connection().connectionId() + ", session=Session("
                + request.principal() + "," + request.clientAddress() + "), listenerName=ListenerName("
                + request.listenerName() + "), securityProtocol=" + request.securityProtocol() + ", header="
                + request.header() + ")";
    }

    private static ResourcePattern literal(ResourceType type, String name) {
        return new ResourcePattern(type, name, PatternType.LITERAL);
    }
}
