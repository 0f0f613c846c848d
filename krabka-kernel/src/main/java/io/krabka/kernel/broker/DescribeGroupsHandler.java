package io.krabka.kernel.broker;

import io.krabka.kernel.group.GroupCoordinator;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.DescribeGroupsRequestData;
import org.apache.kafka.common.message.DescribeGroupsResponseData;
import org.apache.kafka.common.message.DescribeGroupsResponseData.DescribedGroup;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DescribeGroupsRequest;
import org.apache.kafka.common.utils.Utils;

/**
 * DescribeGroups (v0-6). Asked for authorized operations (v3+), it reports every operation Kafka 4.4 defines on a
 * group ({@code AclEntry.supportedOperations(GROUP)}: READ, DESCRIBE, DELETE, DESCRIBE_CONFIGS, ALTER_CONFIGS):
 * Krabka has no authorizer, and Kafka without one reports them all.
 */
public final class DescribeGroupsHandler implements ApiHandler {

    private static final int ALL_GROUP_OPERATIONS = Utils.to32BitField(Set.of(
            AclOperation.READ.code(),
            AclOperation.DESCRIBE.code(),
            AclOperation.DELETE.code(),
            AclOperation.DESCRIBE_CONFIGS.code(),
            AclOperation.ALTER_CONFIGS.code()));

    private final GroupCoordinator coordinator;

    /** A handler. */
    public DescribeGroupsHandler(GroupCoordinator coordinator) {
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.DESCRIBE_GROUPS;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        DescribeGroupsRequestData data = ((DescribeGroupsRequest) request.body()).data();
        List<DescribedGroup> groups = new ArrayList<>(data.groups().size());
        for (String groupId : data.groups()) {
            DescribedGroup group = coordinator.describeGroup(groupId, request.apiVersion());
            if (data.includeAuthorizedOperations() && group.errorCode() == Errors.NONE.code()) {
                group.setAuthorizedOperations(ALL_GROUP_OPERATIONS);
            }
            groups.add(group);
        }
        return CompletableFuture.completedFuture(Response.send(new DescribeGroupsResponseData().setGroups(groups)));
    }
}
