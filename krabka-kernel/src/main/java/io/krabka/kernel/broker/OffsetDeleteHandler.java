package io.krabka.kernel.broker;

import io.krabka.kernel.group.GroupCoordinator;
import io.krabka.kernel.group.OffsetDeletion;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.TopicImage;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import io.krabka.spi.common.TopicPartition;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.GroupAuthorizationException;
import org.apache.kafka.common.message.OffsetDeleteRequestData;
import org.apache.kafka.common.message.OffsetDeleteRequestData.OffsetDeleteRequestPartition;
import org.apache.kafka.common.message.OffsetDeleteRequestData.OffsetDeleteRequestTopic;
import org.apache.kafka.common.message.OffsetDeleteResponseData;
import org.apache.kafka.common.message.OffsetDeleteResponseData.OffsetDeleteResponsePartition;
import org.apache.kafka.common.message.OffsetDeleteResponseData.OffsetDeleteResponsePartitionCollection;
import org.apache.kafka.common.message.OffsetDeleteResponseData.OffsetDeleteResponseTopic;
import org.apache.kafka.common.message.OffsetDeleteResponseData.OffsetDeleteResponseTopicCollection;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.OffsetDeleteRequest;
import org.apache.kafka.common.requests.OffsetDeleteResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * OffsetDelete (v0, {@code Admin.deleteConsumerGroupOffsets}, {@code kafka-consumer-groups.sh --delete-offsets}) as
 * Kafka's {@code KafkaApis.handleOffsetDeleteRequest}: a topic or partition the metadata does not have answers
 * UNKNOWN_TOPIC_OR_PARTITION; the coordinator deletes the offsets of the others, refusing those of topics the group's
 * members consume (GROUP_SUBSCRIBED_TO_TOPIC), and its group error (GROUP_ID_NOT_FOUND, NON_EMPTY_GROUP,
 * NOT_COORDINATOR...) replaces every partition's, as Kafka's response builder merges them.
 */
public final class OffsetDeleteHandler implements ApiHandler {

    private final AuthHelper auth;
    private final GroupCoordinator coordinator;
    private final Supplier<MetadataImage> metadata;

    /**
     * A handler.
     *
     * @param metadata the current cluster metadata
     */
    public OffsetDeleteHandler(AuthHelper auth, GroupCoordinator coordinator, Supplier<MetadataImage> metadata) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
        this.metadata = Objects.requireNonNull(metadata, "metadata");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.OFFSET_DELETE;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        OffsetDeleteRequestData data = ((OffsetDeleteRequest) request.body()).data();
        if (!auth.authorize(request, AclOperation.DELETE, ResourceType.GROUP, data.groupId())) {
            throw GroupAuthorizationException.forGroupId(data.groupId());
        }
        Predicate<String> readable = auth.filterByAuthorized(
                request, AclOperation.READ, ResourceType.TOPIC, data.topics(), OffsetDeleteRequestTopic::name);
        MetadataImage image = metadata.get();
        OffsetDeleteResponse.Builder response = new OffsetDeleteResponse.Builder();
        Map<String, List<Integer>> known = new LinkedHashMap<>();
        for (OffsetDeleteRequestTopic topic : data.topics()) {
            if (!readable.test(topic.name())) {
                response.addPartitions(
                        topic.name(),
                        topic.partitions(),
                        OffsetDeleteRequestPartition::partitionIndex,
                        Errors.TOPIC_AUTHORIZATION_FAILED);
                continue;
            }
            TopicImage found = image.topic(topic.name()).orElse(null);
            if (found == null) {
                response.addPartitions(
                        topic.name(),
                        topic.partitions(),
                        OffsetDeleteRequestPartition::partitionIndex,
                        Errors.UNKNOWN_TOPIC_OR_PARTITION);
                continue;
            }
            List<Integer> partitions = new ArrayList<>();
            for (OffsetDeleteRequestPartition partition : topic.partitions()) {
                if (found.partitions().containsKey(partition.partitionIndex())) {
                    partitions.add(partition.partitionIndex());
                } else {
                    response.addPartition(topic.name(), partition.partitionIndex(), Errors.UNKNOWN_TOPIC_OR_PARTITION);
                }
            }
            if (!partitions.isEmpty()) {
                known.put(topic.name(), partitions);
            }
        }
        OffsetDeletion deletion = coordinator.deleteOffsets(data.groupId(), known);
        return CompletableFuture.completedFuture(
                Response.send(response.merge(toResponse(deletion)).build().data()));
    }

    private static OffsetDeleteResponseData toResponse(OffsetDeletion deletion) {
        OffsetDeleteResponseTopicCollection topics = new OffsetDeleteResponseTopicCollection();
        deletion.partitions().forEach((TopicPartition tp, Errors error) -> {
            OffsetDeleteResponseTopic topic = topics.find(tp.topic());
            if (topic == null) {
                topic = new OffsetDeleteResponseTopic()
                        .setName(tp.topic())
                        .setPartitions(new OffsetDeleteResponsePartitionCollection());
                topics.add(topic);
            }
            topic.partitions()
                    .add(new OffsetDeleteResponsePartition()
                            .setPartitionIndex(tp.partition())
                            .setErrorCode(error.code()));
        });
        return new OffsetDeleteResponseData()
                .setErrorCode(deletion.error().code())
                .setTopics(topics);
    }
}
