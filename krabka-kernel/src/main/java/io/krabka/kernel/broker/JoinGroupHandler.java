package io.krabka.kernel.broker;

import io.krabka.kernel.group.GroupCoordinator;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.JoinGroupRequest;
import org.apache.kafka.common.requests.JoinGroupResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * JoinGroup (v0-9): answered when the group's join phase completes, which may take up to the rebalance timeout.
 * Version 0 has no rebalance timeout: kafka-clients' request takes the session timeout for it, as Kafka does.
 */
public final class JoinGroupHandler implements ApiHandler {

    private final AuthHelper auth;
    private final GroupCoordinator coordinator;

    /** A handler. */
    public JoinGroupHandler(AuthHelper auth, GroupCoordinator coordinator) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.JOIN_GROUP;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        JoinGroupRequest join = (JoinGroupRequest) request.body();
        short version = request.apiVersion();
        if (!auth.authorize(
                request, AclOperation.READ, ResourceType.GROUP, join.data().groupId())) {
            throw GroupAuthorizationException.forGroupId(join.data().groupId());
        }
        // JoinGroupResponse fills what old versions cannot carry as null (a protocol name of "" before v7).
        return coordinator
                .joinGroup(GroupRequests.context(request), join.data())
                .thenApply(response -> Response.send(new JoinGroupResponse(response, version).data()));
    }
}
