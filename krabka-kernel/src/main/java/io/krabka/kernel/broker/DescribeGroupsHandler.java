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
import org.apache.kafka.common.message.DescribeGroupsRequestData;
import org.apache.kafka.common.message.DescribeGroupsResponseData;
import org.apache.kafka.common.message.DescribeGroupsResponseData.DescribedGroup;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DescribeGroupsRequest;
import org.apache.kafka.common.requests.DescribeGroupsResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * DescribeGroups (v0-6), authorized as Kafka's {@code KafkaApis}: a group the principal may not DESCRIBE is answered
 * GROUP_AUTHORIZATION_FAILED; asked for authorized operations (v3+), a described group reports the operations the
 * principal may do on it.
 */
public final class DescribeGroupsHandler implements ApiHandler {

    private final AuthHelper auth;
    private final GroupCoordinator coordinator;

    /** A handler. */
    public DescribeGroupsHandler(AuthHelper auth, GroupCoordinator coordinator) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.DESCRIBE_GROUPS;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        DescribeGroupsRequestData data = ((DescribeGroupsRequest) request.body()).data();
        // Kafka answers the groups the principal may not describe first, then the described ones.
        List<DescribedGroup> groups = new ArrayList<>(data.groups().size());
        List<String> authorized = new ArrayList<>(data.groups().size());
        for (String groupId : data.groups()) {
            if (auth.authorize(request, AclOperation.DESCRIBE, ResourceType.GROUP, groupId)) {
                authorized.add(groupId);
            } else {
                groups.add(DescribeGroupsResponse.groupError(groupId, Errors.GROUP_AUTHORIZATION_FAILED));
            }
        }
        for (String groupId : authorized) {
            DescribedGroup group = coordinator.describeGroup(groupId, request.apiVersion());
            if (data.includeAuthorizedOperations() && group.errorCode() == Errors.NONE.code()) {
                group.setAuthorizedOperations(auth.authorizedOperations(request, ResourceType.GROUP, groupId));
            }
            groups.add(group);
        }
        return CompletableFuture.completedFuture(Response.send(new DescribeGroupsResponseData().setGroups(groups)));
    }
}
