package io.krabka.kernel.broker;

import io.krabka.kernel.group.GroupCoordinator;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Predicate;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.DeleteGroupsResponseData;
import org.apache.kafka.common.message.DeleteGroupsResponseData.DeletableGroupResult;
import org.apache.kafka.common.message.DeleteGroupsResponseData.DeletableGroupResultCollection;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DeleteGroupsRequest;
import org.apache.kafka.common.resource.ResourceType;

/**
 * DeleteGroups (v0-3): each group with its offsets, if Empty; NON_EMPTY_GROUP if it has members,
 * GROUP_ID_NOT_FOUND if there is none.
 */
public final class DeleteGroupsHandler implements ApiHandler {

    private final AuthHelper auth;
    private final GroupCoordinator coordinator;

    /** A handler. */
    public DeleteGroupsHandler(AuthHelper auth, GroupCoordinator coordinator) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.DELETE_GROUPS;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        DeleteGroupsRequest delete = (DeleteGroupsRequest) request.body();
        List<String> groups = delete.data().groupsNames().stream().distinct().toList();
        Predicate<String> authorized =
                auth.filterByAuthorized(request, AclOperation.DELETE, ResourceType.GROUP, groups, Function.identity());
        DeletableGroupResultCollection results = new DeletableGroupResultCollection();
        for (String groupId : groups) {
            if (!authorized.test(groupId)) {
                continue;
            }
            Errors error = coordinator.deleteGroup(groupId);
            DeletableGroupResult result =
                    new DeletableGroupResult().setGroupId(groupId).setErrorCode(error.code());
            if (error != Errors.NONE && request.apiVersion() >= 3) {
                result.setErrorMessage(error.message());
            }
            results.add(result);
        }
        // Kafka answers the groups the principal may not delete after the others.
        for (String groupId : groups) {
            if (!authorized.test(groupId)) {
                results.add(new DeletableGroupResult()
                        .setGroupId(groupId)
                        .setErrorCode(Errors.GROUP_AUTHORIZATION_FAILED.code()));
            }
        }
        return CompletableFuture.completedFuture(Response.send(new DeleteGroupsResponseData().setResults(results)));
    }
}
