package io.krabka.kernel.broker;

import io.krabka.kernel.errors.KernelErrors;
import io.krabka.kernel.log.EpochEndOffset;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import io.krabka.kernel.replica.ReplicaManager;
import io.krabka.spi.common.TopicPartition;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData.OffsetForLeaderPartition;
import org.apache.kafka.common.message.OffsetForLeaderEpochRequestData.OffsetForLeaderTopic;
import org.apache.kafka.common.message.OffsetForLeaderEpochResponseData;
import org.apache.kafka.common.message.OffsetForLeaderEpochResponseData.OffsetForLeaderTopicResult;
import org.apache.kafka.common.message.OffsetForLeaderEpochResponseData.OffsetForLeaderTopicResultCollection;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.OffsetsForLeaderEpochRequest;
import org.apache.kafka.common.resource.Resource;
import org.apache.kafka.common.resource.ResourceType;

/**
 * OffsetsForLeaderEpoch as Kafka's {@code KafkaApis.handleOffsetForLeaderEpochRequest} answers it on a leader: what
 * a consumer sends to validate its position after a leader change or when it resumes from a committed offset that
 * carries an epoch (KIP-320). Per partition the end offset of the epoch asked for and the epoch it belongs to;
 * -1 and -1 when the log knows no epoch at or below it; FENCED_LEADER_EPOCH or UNKNOWN_LEADER_EPOCH when the
 * request's current leader epoch is older or newer than the partition's; UNKNOWN_TOPIC_OR_PARTITION for a
 * partition this node does not have. CLUSTER_ACTION (a replica) or DESCRIBE on the topic is needed, else
 * TOPIC_AUTHORIZATION_FAILED, answered after the others as Kafka's.
 */
public final class OffsetForLeaderEpochHandler implements ApiHandler {

    private final AuthHelper auth;
    private final ReplicaManager replicaManager;

    /** A handler answering from {@code replicaManager}'s logs. */
    public OffsetForLeaderEpochHandler(AuthHelper auth, ReplicaManager replicaManager) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.replicaManager = Objects.requireNonNull(replicaManager, "replicaManager");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.OFFSET_FOR_LEADER_EPOCH;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        OffsetsForLeaderEpochRequest body = (OffsetsForLeaderEpochRequest) request.body();
        OffsetForLeaderTopicResultCollection topics = new OffsetForLeaderTopicResultCollection();
        // Replicas ask with CLUSTER_ACTION; consumers (KIP-320) need DESCRIBE on each topic, and Kafka answers the
        // refused topics after the others.
        Predicate<String> describable = auth.authorize(
                        request,
                        AclOperation.CLUSTER_ACTION,
                        ResourceType.CLUSTER,
                        Resource.CLUSTER_NAME,
                        true,
                        false,
                        1)
                ? topic -> true
                : auth.filterByAuthorized(
                        request,
                        AclOperation.DESCRIBE,
                        ResourceType.TOPIC,
                        body.data().topics(),
                        OffsetForLeaderTopic::topic);
        List<OffsetForLeaderTopicResult> refused = new ArrayList<>();
        for (OffsetForLeaderTopic topic : body.data().topics()) {
            if (!describable.test(topic.topic())) {
                refused.add(new OffsetForLeaderTopicResult()
                        .setTopic(topic.topic())
                        .setPartitions(topic.partitions().stream()
                                .map(partition -> new OffsetForLeaderEpochResponseData.EpochEndOffset()
                                        .setPartition(partition.partition())
                                        .setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code()))
                                .toList()));
                continue;
            }
            List<OffsetForLeaderEpochResponseData.EpochEndOffset> partitions = new ArrayList<>();
            for (OffsetForLeaderPartition partition : topic.partitions()) {
                partitions.add(endOffset(topic.topic(), partition));
            }
            topics.add(new OffsetForLeaderTopicResult().setTopic(topic.topic()).setPartitions(partitions));
        }
        refused.forEach(topics::add);
        return CompletableFuture.completedFuture(Response.send(
                new OffsetForLeaderEpochResponseData().setThrottleTimeMs(0).setTopics(topics)));
    }

    private OffsetForLeaderEpochResponseData.EpochEndOffset endOffset(String topic, OffsetForLeaderPartition asked) {
        OffsetForLeaderEpochResponseData.EpochEndOffset answer =
                new OffsetForLeaderEpochResponseData.EpochEndOffset().setPartition(asked.partition());
        if (topic == null || topic.isEmpty() || asked.partition() < 0) {
            return answer.setErrorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
        }
        try {
            Optional<EpochEndOffset> found = replicaManager.lastOffsetForLeaderEpoch(
                    new TopicPartition(topic, asked.partition()),
                    Optional.of(asked.currentLeaderEpoch()),
                    asked.leaderEpoch());
            found.ifPresent(end -> answer.setLeaderEpoch(end.leaderEpoch()).setEndOffset(end.endOffset()));
            return answer.setErrorCode(Errors.NONE.code());
        } catch (RuntimeException e) {
            return answer.setErrorCode(KernelErrors.forException(e).code());
        }
    }
}
