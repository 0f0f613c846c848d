package io.krabka.kernel.broker;

import io.krabka.kernel.group.GroupCoordinator;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.message.SyncGroupResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.SyncGroupRequest;
import org.apache.kafka.common.resource.ResourceType;

/**
 * SyncGroup (v0-5): the leader's assignment is written, then every member gets its part. From v5 the request must
 * name the protocol type and name (INCONSISTENT_GROUP_PROTOCOL otherwise), as Kafka checks.
 */
public final class SyncGroupHandler implements ApiHandler {

    private final AuthHelper auth;
    private final GroupCoordinator coordinator;

    /** A handler. */
    public SyncGroupHandler(AuthHelper auth, GroupCoordinator coordinator) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.SYNC_GROUP;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        SyncGroupRequest sync = (SyncGroupRequest) request.body();
        if (!sync.areMandatoryProtocolTypeAndNamePresent()) {
            return CompletableFuture.completedFuture(
                    Response.send(new SyncGroupResponseData().setErrorCode(Errors.INCONSISTENT_GROUP_PROTOCOL.code())));
        }
        if (!auth.authorize(
                request, AclOperation.READ, ResourceType.GROUP, sync.data().groupId())) {
            throw GroupAuthorizationException.forGroupId(sync.data().groupId());
        }
        return coordinator.syncGroup(sync.data()).thenApply(Response::send);
    }
}
