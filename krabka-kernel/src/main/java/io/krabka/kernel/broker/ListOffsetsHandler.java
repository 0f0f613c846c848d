package io.krabka.kernel.broker;

import io.krabka.kernel.errors.KernelErrors;
import io.krabka.kernel.log.TimestampAndOffset;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import io.krabka.kernel.replica.ReplicaManager;
import io.krabka.spi.common.TopicPartition;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.ListOffsetsRequestData;
import org.apache.kafka.common.message.ListOffsetsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ListOffsetsRequest;
import org.apache.kafka.common.resource.ResourceType;

/**
 * Answers ListOffsets as Kafka's {@code KafkaApis.handleListOffsetRequest}: per partition the earliest (-2),
 * latest (-1), max-timestamp (-3), earliest-local (-4), latest-tiered (-5) and earliest-pending-upload (-6) offsets,
 * or the first offset at or after a timestamp, with the leader epoch of its batch; the latest offset and timestamp
 * lookups stop at the high watermark, or at the last stable offset for read_committed. A partition named twice
 * gets INVALID_REQUEST; a partition with no answer gets offset and timestamp -1. A topic the principal may not
 * DESCRIBE is answered TOPIC_AUTHORIZATION_FAILED, after the others, as Kafka's.
 */
public final class ListOffsetsHandler implements ApiHandler {

    private final AuthHelper auth;
    private final ReplicaManager replicaManager;

    /** A handler looking offsets up through {@code replicaManager}. */
    public ListOffsetsHandler(AuthHelper auth, ReplicaManager replicaManager) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.replicaManager = Objects.requireNonNull(replicaManager, "replicaManager");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.LIST_OFFSETS;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        ListOffsetsRequest listOffsets = (ListOffsetsRequest) request.body();
        boolean readCommitted = listOffsets.isolationLevel() == IsolationLevel.READ_COMMITTED;
        Set<org.apache.kafka.common.TopicPartition> duplicates = listOffsets.duplicatePartitions();
        List<ListOffsetsResponseData.ListOffsetsTopicResponse> topics = new ArrayList<>();
        // DESCRIBE on each topic; Kafka answers the refused topics after the others.
        Predicate<String> describable = auth.filterByAuthorized(
                request,
                AclOperation.DESCRIBE,
                ResourceType.TOPIC,
                listOffsets.topics(),
                ListOffsetsRequestData.ListOffsetsTopic::name);
        List<ListOffsetsResponseData.ListOffsetsTopicResponse> refused = new ArrayList<>();
        for (ListOffsetsRequestData.ListOffsetsTopic topic : listOffsets.topics()) {
            if (!describable.test(topic.name())) {
                refused.add(new ListOffsetsResponseData.ListOffsetsTopicResponse()
                        .setName(topic.name())
                        .setPartitions(topic.partitions().stream()
                                .map(partition -> answer(partition, Errors.TOPIC_AUTHORIZATION_FAILED))
                                .toList()));
                continue;
            }
            List<ListOffsetsResponseData.ListOffsetsPartitionResponse> partitions = new ArrayList<>();
            for (ListOffsetsRequestData.ListOffsetsPartition partition : topic.partitions()) {
                boolean duplicate = duplicates.contains(
                        new org.apache.kafka.common.TopicPartition(topic.name(), partition.partitionIndex()));
                partitions.add(
                        duplicate
                                ? answer(partition, Errors.INVALID_REQUEST)
                                : lookup(topic.name(), partition, readCommitted, listOffsets.version()));
            }
            topics.add(new ListOffsetsResponseData.ListOffsetsTopicResponse()
                    .setName(topic.name())
                    .setPartitions(partitions));
        }
        topics.addAll(refused);
        return CompletableFuture.completedFuture(
                Response.send(new ListOffsetsResponseData().setThrottleTimeMs(0).setTopics(topics)));
    }

    private ListOffsetsResponseData.ListOffsetsPartitionResponse lookup(
            String topic, ListOffsetsRequestData.ListOffsetsPartition partition, boolean readCommitted, short version) {
        if (topic == null || topic.isEmpty() || partition.partitionIndex() < 0) {
            return answer(partition, Errors.UNKNOWN_TOPIC_OR_PARTITION);
        }
        try {
            Optional<TimestampAndOffset> found = replicaManager.fetchOffsetForTimestamp(
                    new TopicPartition(topic, partition.partitionIndex()),
                    partition.timestamp(),
                    readCommitted,
                    Optional.of(partition.currentLeaderEpoch()));
            ListOffsetsResponseData.ListOffsetsPartitionResponse response = answer(partition, Errors.NONE);
            found.ifPresent(result -> response.setTimestamp(result.timestamp()).setOffset(result.offset()));
            // The leader epoch is in the answer from v4; an older version cannot carry it.
            if (version >= 4) {
                found.ifPresent(
                        result -> response.setLeaderEpoch(result.leaderEpoch().orElse(-1)));
            }
            return response;
        } catch (IOException | RuntimeException e) {
            return answer(partition, KernelErrors.forException(e));
        }
    }

    /** An answer without an offset: -1 for offset, timestamp and epoch, as Kafka's for none found. */
    private static ListOffsetsResponseData.ListOffsetsPartitionResponse answer(
            ListOffsetsRequestData.ListOffsetsPartition partition, Errors error) {
        return new ListOffsetsResponseData.ListOffsetsPartitionResponse()
                .setPartitionIndex(partition.partitionIndex())
                .setErrorCode(error.code())
                .setTimestamp(-1)
                .setOffset(-1)
                .setLeaderEpoch(-1);
    }
}
