package io.krabka.kernel.broker;

import io.krabka.kernel.log.ActiveProducer;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import io.krabka.kernel.replica.ReplicaManager;
import io.krabka.spi.common.TopicPartition;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.message.DescribeProducersRequestData;
import org.apache.kafka.common.message.DescribeProducersResponseData;
import org.apache.kafka.common.message.DescribeProducersResponseData.PartitionResponse;
import org.apache.kafka.common.message.DescribeProducersResponseData.ProducerState;
import org.apache.kafka.common.message.DescribeProducersResponseData.TopicResponse;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DescribeProducersRequest;

/**
 * DescribeProducers, as Kafka's {@code handleDescribeProducersRequest}: the producers each partition knows, with their
 * epochs, last sequences and open transactions ({@code kafka-transactions.sh describe-producers}, and the search for
 * hanging transactions); a partition this node does not have answers its error.
 */
public final class DescribeProducersHandler implements ApiHandler {

    private final ReplicaManager replicaManager;

    /** A handler reading the partitions of {@code replicaManager}. */
    public DescribeProducersHandler(ReplicaManager replicaManager) {
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
            for (int index : topic.partitionIndexes()) {
                topicResponse.partitions().add(describe(new TopicPartition(topic.name(), index)));
            }
            response.topics().add(topicResponse);
        }
        return CompletableFuture.completedFuture(Response.send(response));
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
