package io.krabka.kernel.broker;

import io.krabka.kernel.log.ActiveProducer;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import io.krabka.kernel.replica.ReplicaManager;
import io.krabka.spi.common.TopicPartition;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.TopicAuthorizationException;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.message.DescribeProducersRequestData;
import org.apache.kafka.common.message.DescribeProducersResponseData;
import org.apache.kafka.common.message.DescribeProducersResponseData.PartitionResponse;
import org.apache.kafka.common.message.DescribeProducersResponseData.ProducerState;
import org.apache.kafka.common.message.DescribeProducersResponseData.TopicResponse;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DescribeProducersRequest;
import org.apache.kafka.common.resource.ResourceType;

/**
 * DescribeProducers, as Kafka's {@code handleDescribeProducersRequest}: the producers each partition knows, with their
 * epochs, last sequences and open transactions ({@code kafka-transactions.sh describe-producers}, and the search for
 * hanging transactions); a partition this node does not have answers its error. An invalid topic name, then a topic
 * the principal may not READ (TOPIC_AUTHORIZATION_FAILED), is answered for each of its partitions.
 */
public final class DescribeProducersHandler implements ApiHandler {

    private final AuthHelper auth;
    private final ReplicaManager replicaManager;

    /** A handler reading the partitions of {@code replicaManager}. */
    public DescribeProducersHandler(AuthHelper auth, ReplicaManager replicaManager) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.replicaManager = Objects.requireNonNull(replicaManager, "replicaManager");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.DESCRIBE_PRODUCERS;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        DescribeProducersRequestData data = ((DescribeProducersRequest) request.body()).data();
        DescribeProducersResponseData response = new DescribeProducersResponseData().setThrottleTimeMs(0);
        for (DescribeProducersRequestData.TopicRequest topic : data.topics()) {
            TopicResponse topicResponse = new TopicResponse().setName(topic.name());
            ApiException refused = refusal(request, topic.name());
            for (int index : topic.partitionIndexes()) {
                topicResponse
                        .partitions()
                        .add(
                                refused == null
                                        ? describe(new TopicPartition(topic.name(), index))
                                        : new PartitionResponse()
                                                .setPartitionIndex(index)
                                                .setErrorCode(Errors.forException(refused)
                                                        .code())
                                                .setErrorMessage(refused.getMessage()));
            }
            response.topics().add(topicResponse);
        }
        return CompletableFuture.completedFuture(Response.send(response));
    }

    // As Kafka: an invalid topic name first, then READ on the topic (its partitions are not looked at otherwise).
    private ApiException refusal(Request request, String topic) {
        try {
            Topic.validate(topic);
        } catch (InvalidTopicException e) {
            return e;
        }
        if (!auth.authorize(request, AclOperation.READ, ResourceType.TOPIC, topic)) {
            return new TopicAuthorizationException(Errors.TOPIC_AUTHORIZATION_FAILED.message());
        }
        return null;
    }

    private PartitionResponse describe(TopicPartition topicPartition) {
        PartitionResponse response = new PartitionResponse().setPartitionIndex(topicPartition.partition());
        try {
            for (ActiveProducer producer : replicaManager.activeProducers(topicPartition)) {
                response.activeProducers()
                        .add(new ProducerState()
                                .setProducerId(producer.producerId())
                                .setProducerEpoch(producer.producerEpoch())
                                .setLastSequence(producer.lastSequence())
                                .setLastTimestamp(producer.lastTimestamp())
                                .setCoordinatorEpoch(producer.coordinatorEpoch())
                                .setCurrentTxnStartOffset(producer.currentTxnStartOffset()));
            }
            return response.setErrorCode(Errors.NONE.code());
        } catch (ApiException e) {
            return response.setErrorCode(Errors.forException(e).code()).setErrorMessage(e.getMessage());
        }
    }
}
