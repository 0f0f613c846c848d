package io.krabka.kernel.broker;

import io.krabka.kernel.group.GroupCoordinator;
import io.krabka.kernel.group.GroupOffsets;
import io.krabka.kernel.group.OffsetCommitValue;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.TopicImage;
import io.krabka.kernel.metadata.WireUuids;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import io.krabka.spi.common.TopicPartition;
import io.krabka.spi.common.Uuid;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.OffsetFetchRequestData.OffsetFetchRequestGroup;
import org.apache.kafka.common.message.OffsetFetchRequestData.OffsetFetchRequestTopics;
import org.apache.kafka.common.message.OffsetFetchResponseData.OffsetFetchResponseGroup;
import org.apache.kafka.common.message.OffsetFetchResponseData.OffsetFetchResponsePartitions;
import org.apache.kafka.common.message.OffsetFetchResponseData.OffsetFetchResponseTopics;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.OffsetFetchRequest;
import org.apache.kafka.common.requests.OffsetFetchResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * OffsetFetch (v1-10): one group before v8, several from v8, topics by id from v10; no topics asks for every
 * committed offset. A partition without an offset reads -1. With {@code require_stable} (v7+, a read_committed
 * consumer) a partition whose offset an open transaction holds answers UNSTABLE_OFFSET_COMMIT, which the consumer
 * retries. kafka-clients' builder writes the old single-group layout. Authorized as Kafka's {@code KafkaApis}:
 * DESCRIBE on each group and on each topic.
 */
public final class OffsetFetchHandler implements ApiHandler {

    private final AuthHelper auth;
    private final GroupCoordinator coordinator;
    private final Supplier<MetadataImage> metadata;

    /**
     * A handler.
     *
     * @param metadata the current cluster metadata (topic ids)
     */
    public OffsetFetchHandler(AuthHelper auth, GroupCoordinator coordinator, Supplier<MetadataImage> metadata) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
        this.metadata = Objects.requireNonNull(metadata, "metadata");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.OFFSET_FETCH;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        OffsetFetchRequest fetch = (OffsetFetchRequest) request.body();
        MetadataImage image = metadata.get();
        List<OffsetFetchResponseGroup> groups = new ArrayList<>();
        for (OffsetFetchRequestGroup group : fetch.groups()) {
            groups.add(fetchGroup(request, group, image, fetch.requireStable()));
        }
        return CompletableFuture.completedFuture(Response.send(new OffsetFetchResponse.Builder(groups)
                .build(request.apiVersion())
                .data()));
    }

    // Before v2 a group's error goes into every partition: kafka-clients' groupError does that.
    // Authorized as Kafka's: DESCRIBE on the group, else GROUP_AUTHORIZATION_FAILED; the topics asked for that the
    // principal may not DESCRIBE are answered TOPIC_AUTHORIZATION_FAILED after the others, and a fetch of every
    // offset leaves them out.
    private OffsetFetchResponseGroup fetchGroup(
            Request request, OffsetFetchRequestGroup group, MetadataImage image, boolean requireStable) {
        short version = request.apiVersion();
        if (!auth.authorize(request, AclOperation.DESCRIBE, ResourceType.GROUP, group.groupId())) {
            return OffsetFetchResponse.groupError(group, Errors.GROUP_AUTHORIZATION_FAILED, version);
        }
        boolean useTopicIds = OffsetFetchRequest.useTopicIds(version);
        Map<TopicPartition, org.apache.kafka.common.Uuid> asked = null;
        Map<String, List<Integer>> unknownIds = new LinkedHashMap<>();
        List<OffsetFetchResponseTopics> unauthorized = new ArrayList<>();
        if (!OffsetFetchRequest.requestAllOffsets(group)) {
            asked = new LinkedHashMap<>();
            List<OffsetFetchRequestTopics> known = new ArrayList<>();
            List<String> names = new ArrayList<>();
            for (OffsetFetchRequestTopics topic : group.topics()) {
                if (useTopicIds) {
                    Optional<TopicImage> found = image.topic(WireUuids.fromWire(topic.topicId()));
                    if (found.isEmpty()) {
                        unknownIds.put(topic.topicId().toString(), topic.partitionIndexes());
                        continue;
                    }
                    names.add(found.get().name());
                } else {
                    names.add(topic.name());
                }
                known.add(topic);
            }
            Predicate<String> describable = auth.filterByAuthorized(
                    request, AclOperation.DESCRIBE, ResourceType.TOPIC, names, Function.identity());
            for (int t = 0; t < known.size(); t++) {
                OffsetFetchRequestTopics topic = known.get(t);
                String name = names.get(t);
                if (!describable.test(name)) {
                    unauthorized.add(refused(name, topic.topicId(), topic.partitionIndexes()));
                    continue;
                }
                for (int partition : topic.partitionIndexes()) {
                    asked.put(new TopicPartition(name, partition), topic.topicId());
                }
            }
        }
        GroupOffsets offsets = coordinator.fetchOffsets(
                group.groupId(), asked == null ? null : List.copyOf(asked.keySet()), requireStable);
        if (offsets.error() != Errors.NONE) {
            return OffsetFetchResponse.groupError(group, offsets.error(), version);
        }
        Map<String, OffsetFetchResponseTopics> topics = new LinkedHashMap<>();
        for (Map.Entry<TopicPartition, OffsetCommitValue> entry :
                offsets.offsets().entrySet()) {
            TopicPartition tp = entry.getKey();
            org.apache.kafka.common.Uuid topicId = !useTopicIds
                    ? org.apache.kafka.common.Uuid.ZERO_UUID
                    : asked != null ? asked.get(tp) : topicId(image, tp, entry.getValue());
            if (useTopicIds && topicId == null) {
                continue;
            }
            OffsetFetchResponseTopics topic = topics.computeIfAbsent(
                    tp.topic(),
                    name -> new OffsetFetchResponseTopics().setName(name).setTopicId(topicId));
            topic.partitions()
                    .add(
                            offsets.unstable().contains(tp)
                                    ? unstable(tp.partition())
                                    : partition(tp.partition(), entry.getValue()));
        }
        if (asked == null) {
            Predicate<String> describable = auth.filterByAuthorized(
                    request, AclOperation.DESCRIBE, ResourceType.TOPIC, topics.keySet(), Function.identity());
            topics.keySet().removeIf(name -> !describable.test(name));
        }
        unauthorized.forEach(topic -> topics.put(topic.name(), topic));
        unknownIds.forEach((id, partitions) -> {
            OffsetFetchResponseTopics topic =
                    new OffsetFetchResponseTopics().setTopicId(org.apache.kafka.common.Uuid.fromString(id));
            partitions.forEach(p -> topic.partitions()
                    .add(new OffsetFetchResponsePartitions()
                            .setPartitionIndex(p)
                            .setCommittedOffset(-1)
                            .setErrorCode(Errors.UNKNOWN_TOPIC_ID.code())));
            topics.put(id, topic);
        });
        return new OffsetFetchResponseGroup().setGroupId(group.groupId()).setTopics(List.copyOf(topics.values()));
    }

    private static OffsetFetchResponseTopics refused(
            String name, org.apache.kafka.common.Uuid topicId, List<Integer> partitions) {
        OffsetFetchResponseTopics topic =
                new OffsetFetchResponseTopics().setName(name).setTopicId(topicId);
        partitions.forEach(p -> topic.partitions()
                .add(new OffsetFetchResponsePartitions()
                        .setPartitionIndex(p)
                        .setCommittedOffset(-1)
                        .setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code())));
        return topic;
    }

    // The id of a topic in a fetch of every offset: the one committed with it, else the metadata's.
    private static org.apache.kafka.common.Uuid topicId(
            MetadataImage image, TopicPartition tp, OffsetCommitValue value) {
        if (value != null && !value.topicId().equals(Uuid.ZERO_UUID)) {
            return WireUuids.toWire(value.topicId());
        }
        return image.topic(tp.topic()).map(t -> WireUuids.toWire(t.id())).orElse(null);
    }

    private static OffsetFetchResponsePartitions unstable(int partition) {
        return new OffsetFetchResponsePartitions()
                .setPartitionIndex(partition)
                .setCommittedOffset(-1)
                .setCommittedLeaderEpoch(-1)
                .setMetadata("")
                .setErrorCode(Errors.UNSTABLE_OFFSET_COMMIT.code());
    }

    private static OffsetFetchResponsePartitions partition(int partition, OffsetCommitValue value) {
        OffsetFetchResponsePartitions response = new OffsetFetchResponsePartitions().setPartitionIndex(partition);
        if (value == null) {
            return response.setCommittedOffset(-1).setCommittedLeaderEpoch(-1).setMetadata("");
        }
        return response.setCommittedOffset(value.offset())
                .setCommittedLeaderEpoch(value.leaderEpoch())
                .setMetadata(value.metadata());
    }
}
