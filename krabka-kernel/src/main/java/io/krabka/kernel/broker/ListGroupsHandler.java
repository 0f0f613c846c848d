package io.krabka.kernel.broker;

import io.krabka.kernel.group.GroupCoordinator;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.ListGroupsRequestData;
import org.apache.kafka.common.message.ListGroupsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.requests.ListGroupsRequest;
import org.apache.kafka.common.resource.Resource;
import org.apache.kafka.common.resource.ResourceType;

/** ListGroups (v0-5): the classic groups, filtered by state (v4+) and type (v5+), case-insensitively. */
public final class ListGroupsHandler implements ApiHandler {

    private final AuthHelper auth;
    private final GroupCoordinator coordinator;

    /** A handler. */
    public ListGroupsHandler(AuthHelper auth, GroupCoordinator coordinator) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.LIST_GROUPS;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        ListGroupsRequestData data = ((ListGroupsRequest) request.body()).data();
        // DESCRIBE on the cluster lists every group (kept by Kafka for compatibility); else the DESCRIBE-able ones.
        boolean clusterDescribe = auth.authorize(
                request, AclOperation.DESCRIBE, ResourceType.CLUSTER, Resource.CLUSTER_NAME, true, false, 1);
        ListGroupsResponseData response = coordinator.listGroups(data.statesFilter(), data.typesFilter());
        if (!clusterDescribe) {
            response.setGroups(response.groups().stream()
                    .filter(group -> auth.authorize(
                            request, AclOperation.DESCRIBE, ResourceType.GROUP, group.groupId(), true, false, 1))
                    .toList());
        }
        return CompletableFuture.completedFuture(Response.send(response));
    }
}
