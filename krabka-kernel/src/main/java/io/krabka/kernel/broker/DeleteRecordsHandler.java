package io.krabka.kernel.broker;

import io.krabka.kernel.errors.KernelErrors;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import io.krabka.kernel.replica.ReplicaManager;
import io.krabka.spi.common.TopicPartition;
import java.io.IOException;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.DeleteRecordsRequestData;
import org.apache.kafka.common.message.DeleteRecordsResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DeleteRecordsRequest;
import org.apache.kafka.common.resource.ResourceType;

/**
 * Answers DeleteRecords as Kafka's {@code KafkaApis.handleDeleteRecordsRequest} with one replica: per partition the
 * log start offset moved up to the offset asked for (-1: the high watermark), and the low watermark it reached; a
 * partition this node does not have gets UNKNOWN_TOPIC_OR_PARTITION and low watermark -1, an internal topic
 * INVALID_TOPIC_EXCEPTION, a compacted-only topic POLICY_VIOLATION, an offset above the high watermark
 * OFFSET_OUT_OF_RANGE. A topic the principal may not DELETE is TOPIC_AUTHORIZATION_FAILED, before any other check.
 */
public final class DeleteRecordsHandler implements ApiHandler {

    /** The low watermark of a partition that has none to give. */
    private static final long NO_LOW_WATERMARK = -1L;

    private final AuthHelper auth;
    private final ReplicaManager replicaManager;

    /** A handler deleting records through {@code replicaManager}. */
    public DeleteRecordsHandler(AuthHelper auth, ReplicaManager replicaManager) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.replicaManager = Objects.requireNonNull(replicaManager, "replicaManager");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.DELETE_RECORDS;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        DeleteRecordsRequestData data = ((DeleteRecordsRequest) request.body()).data();
        DeleteRecordsResponseData.DeleteRecordsTopicResultCollection topics =
                new DeleteRecordsResponseData.DeleteRecordsTopicResultCollection();
        Predicate<String> deletable = auth.filterByAuthorized(
                request,
                AclOperation.DELETE,
                ResourceType.TOPIC,
                data.topics(),
                DeleteRecordsRequestData.DeleteRecordsTopic::name);
        for (DeleteRecordsRequestData.DeleteRecordsTopic topic : data.topics()) {
            DeleteRecordsResponseData.DeleteRecordsPartitionResultCollection partitions =
                    new DeleteRecordsResponseData.DeleteRecordsPartitionResultCollection();
            boolean authorized = deletable.test(topic.name());
            for (DeleteRecordsRequestData.DeleteRecordsPartition partition : topic.partitions()) {
                partitions.add(
                        authorized
                                ? delete(topic.name(), partition)
                                : new DeleteRecordsResponseData.DeleteRecordsPartitionResult()
                                        .setPartitionIndex(partition.partitionIndex())
                                        .setLowWatermark(NO_LOW_WATERMARK)
                                        .setErrorCode(Errors.TOPIC_AUTHORIZATION_FAILED.code()));
            }
            topics.add(new DeleteRecordsResponseData.DeleteRecordsTopicResult()
                    .setName(topic.name())
                    .setPartitions(partitions));
        }
        return CompletableFuture.completedFuture(Response.send(
                new DeleteRecordsResponseData().setThrottleTimeMs(0).setTopics(topics)));
    }

    private DeleteRecordsResponseData.DeleteRecordsPartitionResult delete(
            String topic, DeleteRecordsRequestData.DeleteRecordsPartition partition) {
        DeleteRecordsResponseData.DeleteRecordsPartitionResult result =
                new DeleteRecordsResponseData.DeleteRecordsPartitionResult()
                        .setPartitionIndex(partition.partitionIndex())
                        .setLowWatermark(NO_LOW_WATERMARK);
        if (topic == null || topic.isEmpty() || partition.partitionIndex() < 0) {
            return result.setErrorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
        }
        try {
            long lowWatermark = replicaManager.deleteRecords(
                    new TopicPartition(topic, partition.partitionIndex()), partition.offset());
            return result.setLowWatermark(lowWatermark).setErrorCode(Errors.NONE.code());
        } catch (IOException | RuntimeException e) {
            return result.setErrorCode(KernelErrors.forException(e).code());
        }
    }
}
