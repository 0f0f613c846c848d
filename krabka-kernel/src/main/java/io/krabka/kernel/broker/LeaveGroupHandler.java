package io.krabka.kernel.broker;

import io.krabka.kernel.group.GroupCoordinator;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.message.LeaveGroupResponseData.MemberResponse;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.LeaveGroupRequest;
import org.apache.kafka.common.requests.LeaveGroupResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * LeaveGroup (v0-5): v3+ removes a batch of members (static ones by instance id), each with its error; before v3
 * one member, whose error is the response's.
 */
public final class LeaveGroupHandler implements ApiHandler {

    private final AuthHelper auth;
    private final GroupCoordinator coordinator;

    /** A handler. */
    public LeaveGroupHandler(AuthHelper auth, GroupCoordinator coordinator) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.LEAVE_GROUP;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        LeaveGroupRequest leave = (LeaveGroupRequest) request.body();
        if (!auth.authorize(
                request, AclOperation.READ, ResourceType.GROUP, leave.data().groupId())) {
            throw GroupAuthorizationException.forGroupId(leave.data().groupId());
        }
        List<MemberResponse> members = new ArrayList<>();
        Errors error = coordinator.leaveGroup(leave.data().groupId(), leave.members(), members);
        // LeaveGroupResponse moves a lone member's error to the top level for v0-2.
        return CompletableFuture.completedFuture(Response.send(
                new LeaveGroupResponse(error == Errors.NONE ? members : List.of(), error, 0, request.apiVersion())
                        .data()));
    }
}
