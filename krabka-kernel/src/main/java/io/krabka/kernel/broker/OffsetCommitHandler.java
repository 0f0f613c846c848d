package io.krabka.kernel.broker;

import io.krabka.kernel.group.GroupCoordinator;
import io.krabka.kernel.group.PartitionCommit;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.TopicImage;
import io.krabka.kernel.metadata.WireUuids;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import io.krabka.spi.common.Uuid;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.message.OffsetCommitRequestData;
import org.apache.kafka.common.message.OffsetCommitRequestData.OffsetCommitRequestPartition;
import org.apache.kafka.common.message.OffsetCommitRequestData.OffsetCommitRequestTopic;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.OffsetCommitRequest;
import org.apache.kafka.common.requests.OffsetCommitResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * OffsetCommit (v2-10): v10 names topics by id (UNKNOWN_TOPIC_ID for an id the metadata does not have), older
 * versions by name (UNKNOWN_TOPIC_OR_PARTITION for a topic that does not exist), as Kafka's {@code KafkaApis}
 * checks; authorized as it does (READ on the group, else GROUP_AUTHORIZATION_FAILED for the request; READ on each
 * topic, else TOPIC_AUTHORIZATION_FAILED for its partitions, before the check that it exists); the rest is committed by the coordinator and answered once written.
 */
public final class OffsetCommitHandler implements ApiHandler {

    private final AuthHelper auth;
    private final GroupCoordinator coordinator;
    private final Supplier<MetadataImage> metadata;

    /**
     * A handler.
     *
     * @param metadata the current cluster metadata
     */
    public OffsetCommitHandler(AuthHelper auth, GroupCoordinator coordinator, Supplier<MetadataImage> metadata) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
        this.metadata = Objects.requireNonNull(metadata, "metadata");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.OFFSET_COMMIT;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        OffsetCommitRequestData data = ((OffsetCommitRequest) request.body()).data();
        boolean useTopicIds = OffsetCommitResponse.useTopicIds(request.apiVersion());
        OffsetCommitResponse.Builder response = OffsetCommitResponse.newBuilder(useTopicIds);
        if (!auth.authorize(request, AclOperation.READ, ResourceType.GROUP, data.groupId())) {
            throw GroupAuthorizationException.forGroupId(data.groupId());
        }
        MetadataImage image = metadata.get();
        // v10 names topics by id: a known id is read as its topic's name, an unknown one as "" (as Kafka's).
        List<TopicImage> known = new ArrayList<>(data.topics().size());
        List<String> names = new ArrayList<>(data.topics().size());
        for (OffsetCommitRequestTopic topic : data.topics()) {
            TopicImage found = useTopicIds
                    ? image.topic(WireUuids.fromWire(topic.topicId())).orElse(null)
                    : image.topic(topic.name()).orElse(null);
            known.add(found);
            names.add(useTopicIds ? (found != null ? found.name() : "") : topic.name());
        }
        Predicate<String> authorized =
                auth.filterByAuthorized(request, AclOperation.READ, ResourceType.TOPIC, names, Function.identity());
        List<PartitionCommit> commits = new ArrayList<>();
        List<org.apache.kafka.common.Uuid> wireIds = new ArrayList<>();
        for (int t = 0; t < data.topics().size(); t++) {
            OffsetCommitRequestTopic topic = data.topics().get(t);
            TopicImage found = known.get(t);
            Errors refused = null;
            if (useTopicIds && found == null) {
                refused = Errors.UNKNOWN_TOPIC_ID;
            } else if (!authorized.test(names.get(t))) {
                refused = Errors.TOPIC_AUTHORIZATION_FAILED;
            } else if (found == null) {
                refused = Errors.UNKNOWN_TOPIC_OR_PARTITION;
            }
            if (refused != null) {
                response.addPartitions(
                        topic.topicId(),
                        topic.name(),
                        topic.partitions(),
                        OffsetCommitRequestPartition::partitionIndex,
                        refused);
                continue;
            }
            // Kafka keeps the topic id a v10 commit named, and none for commits by name.
            Uuid topicId = useTopicIds ? found.id() : Uuid.ZERO_UUID;
            for (OffsetCommitRequestPartition partition : topic.partitions()) {
                commits.add(new PartitionCommit(
                        found.name(),
                        topicId,
                        partition.partitionIndex(),
                        partition.committedOffset(),
                        partition.committedLeaderEpoch(),
                        partition.committedMetadata()));
                wireIds.add(topic.topicId());
            }
        }
        List<Errors> errors = commits.isEmpty()
                ? List.of()
                : coordinator.commitOffsets(
                        data.groupId(),
                        data.memberId(),
                        data.groupInstanceId(),
                        data.generationIdOrMemberEpoch(),
                        data.retentionTimeMs(),
                        commits);
        for (int i = 0; i < commits.size(); i++) {
            PartitionCommit commit = commits.get(i);
            response.addPartition(wireIds.get(i), commit.topic(), commit.partition(), errors.get(i));
        }
        return CompletableFuture.completedFuture(Response.send(response.build().data()));
    }
}
