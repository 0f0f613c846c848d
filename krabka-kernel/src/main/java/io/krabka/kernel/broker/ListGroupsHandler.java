package io.krabka.kernel.broker;

import io.krabka.kernel.group.GroupCoordinator;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.message.ListGroupsRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.ListGroupsRequest;

/** ListGroups (v0-5): the classic groups, filtered by state (v4+) and type (v5+), case-insensitively. */
public final class ListGroupsHandler implements ApiHandler {

    private final GroupCoordinator coordinator;

    /** A handler. */
    public ListGroupsHandler(GroupCoordinator coordinator) {
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.LIST_GROUPS;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        ListGroupsRequestData data = ((ListGroupsRequest) request.body()).data();
        return CompletableFuture.completedFuture(
                Response.send(coordinator.listGroups(data.statesFilter(), data.typesFilter())));
    }
}
