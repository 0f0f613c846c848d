package io.krabka.kernel.broker;

import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.FindCoordinatorRequestData;
import org.apache.kafka.common.message.FindCoordinatorResponseData;
import org.apache.kafka.common.message.FindCoordinatorResponseData.Coordinator;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FindCoordinatorRequest;
import org.apache.kafka.common.requests.FindCoordinatorRequest.CoordinatorType;
import org.apache.kafka.common.resource.ResourceType;

/**
 * FindCoordinator (v0-3 one key, v4+ a batch): a GROUP key's coordinator is this node once
 * {@code __consumer_offsets} exists, a TRANSACTION key's once {@code __transaction_state} does (the first request
 * creates the topic, as Kafka's does, and is answered after). Krabka has no share coordinator: SHARE keys get
 * COORDINATOR_NOT_AVAILABLE. An unknown key type is INVALID_REQUEST, as in Kafka. A key the principal may not
 * DESCRIBE is GROUP_AUTHORIZATION_FAILED or TRANSACTIONAL_ID_AUTHORIZATION_FAILED; a share key needs CLUSTER_ACTION.
 */
public final class FindCoordinatorHandler implements ApiHandler {

    private final AuthHelper auth;
    private final Function<String, CompletableFuture<Errors>> groups;
    private final Function<String, CompletableFuture<Errors>> transactions;
    private final int nodeId;
    private final Function<String, InetSocketAddress> endpoint;

    /**
     * A handler.
     *
     * @param groups       whether this node coordinates a group ({@code GroupCoordinator.findCoordinator})
     * @param transactions whether this node coordinates a transactional id
     *                     ({@code TransactionCoordinator.findCoordinator})
     * @param nodeId       this node's id
     * @param endpoint     the address clients of a listener reach this node at, by listener name (its advertised
     *                     endpoint)
     */
    public FindCoordinatorHandler(
            AuthHelper auth,
            Function<String, CompletableFuture<Errors>> groups,
            Function<String, CompletableFuture<Errors>> transactions,
            int nodeId,
            Function<String, InetSocketAddress> endpoint) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.groups = Objects.requireNonNull(groups, "groups");
        this.transactions = Objects.requireNonNull(transactions, "transactions");
        this.nodeId = nodeId;
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.FIND_COORDINATOR;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        FindCoordinatorRequestData data = ((FindCoordinatorRequest) request.body()).data();
        short version = request.apiVersion();
        List<String> keys = version >= 4 ? data.coordinatorKeys() : List.of(data.key());
        List<CompletableFuture<Coordinator>> results = new ArrayList<>(keys.size());
        for (String key : keys) {
            results.add(find(request, data.keyType(), key));
        }
        return CompletableFuture.allOf(results.toArray(CompletableFuture[]::new))
                .thenApply(done -> {
                    List<Coordinator> coordinators =
                            results.stream().map(CompletableFuture::join).toList();
                    return Response.send(
                            version >= 4
                                    ? new FindCoordinatorResponseData().setCoordinators(coordinators)
                                    : single(coordinators.getFirst(), version));
                });
    }

    private CompletableFuture<Coordinator> find(Request request, byte keyType, String key) {
        CoordinatorType type;
        try {
            type = CoordinatorType.forId(keyType);
        } catch (RuntimeException e) {
            return CompletableFuture.completedFuture(
                    error(key, Errors.INVALID_REQUEST, "Unknown coordinator type " + keyType));
        }
        // Kafka asks DESCRIBE on the key before it looks the coordinator up, and CLUSTER_ACTION for a share key.
        Errors refused = switch (type) {
            case GROUP ->
                auth.authorize(request, AclOperation.DESCRIBE, ResourceType.GROUP, key)
                        ? Errors.NONE
                        : Errors.GROUP_AUTHORIZATION_FAILED;
            case TRANSACTION ->
                auth.authorize(request, AclOperation.DESCRIBE, ResourceType.TRANSACTIONAL_ID, key)
                        ? Errors.NONE
                        : Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED;
            case SHARE -> {
                auth.authorizeClusterOperation(request, AclOperation.CLUSTER_ACTION);
                yield Errors.NONE;
            }
        };
        if (refused != Errors.NONE) {
            return CompletableFuture.completedFuture(error(key, refused, refused.message()));
        }
        CompletableFuture<Errors> lookup = switch (type) {
            case GROUP -> groups.apply(key);
            case TRANSACTION -> transactions.apply(key);
            case SHARE -> null;
        };
        if (lookup == null) {
            return CompletableFuture.completedFuture(
                    error(key, Errors.COORDINATOR_NOT_AVAILABLE, "This broker has no share coordinator"));
        }
        return lookup.thenApply(found -> {
            if (found != Errors.NONE) {
                return error(key, found, found.message());
            }
            InetSocketAddress address = endpoint.apply(request.listenerName());
            return new Coordinator()
                    .setKey(key)
                    .setNodeId(nodeId)
                    .setHost(address.getHostString())
                    .setPort(address.getPort());
        });
    }

    private static Coordinator error(String key, Errors error, String message) {
        return new Coordinator()
                .setKey(key)
                .setNodeId(-1)
                .setHost("")
                .setPort(-1)
                .setErrorCode(error.code())
                .setErrorMessage(message);
    }

    private static FindCoordinatorResponseData single(Coordinator coordinator, short version) {
        FindCoordinatorResponseData response = new FindCoordinatorResponseData()
                .setErrorCode(coordinator.errorCode())
                .setNodeId(coordinator.nodeId())
                .setHost(coordinator.host())
                .setPort(coordinator.port());
        if (version >= 1 && coordinator.errorCode() != Errors.NONE.code()) {
            response.setErrorMessage(coordinator.errorMessage());
        }
        return response;
    }
}
