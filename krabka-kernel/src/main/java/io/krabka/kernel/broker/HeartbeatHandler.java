package io.krabka.kernel.broker;

import io.krabka.kernel.group.GroupCoordinator;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.message.HeartbeatResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.HeartbeatRequest;
import org.apache.kafka.common.resource.ResourceType;

/** Heartbeat (v0-4): keeps a member's session; REBALANCE_IN_PROGRESS tells it to rejoin. */
public final class HeartbeatHandler implements ApiHandler {

    private final AuthHelper auth;
    private final GroupCoordinator coordinator;

    /** A handler. */
    public HeartbeatHandler(AuthHelper auth, GroupCoordinator coordinator) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.HEARTBEAT;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        HeartbeatRequest heartbeat = (HeartbeatRequest) request.body();
        if (!auth.authorize(
                request, AclOperation.READ, ResourceType.GROUP, heartbeat.data().groupId())) {
            throw GroupAuthorizationException.forGroupId(heartbeat.data().groupId());
        }
        return CompletableFuture.completedFuture(Response.send(new HeartbeatResponseData()
                .setErrorCode(coordinator.heartbeat(heartbeat.data()).code())));
    }
}
