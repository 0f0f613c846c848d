package io.krabka.kernel.broker;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.requests.ProduceRequest;

import io.krabka.kernel.log.AppendOrigin;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.TopicImage;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import io.krabka.kernel.replica.ProducePartitionResult;
import io.krabka.kernel.replica.ReplicaManager;
import io.krabka.spi.common.TopicPartition;

/**
 * Answers Produce as Kafka's {@code KafkaApis.handleProduceRequest}: topics by name, or by topic id from v13
 * (UNKNOWN_TOPIC_ID); each partition's records checked as {@code ProduceRequest.validateRecords} (one magic 2
 * batch, no ZSTD before v7), then appended by the replica manager. acks=1 and acks=all are answered once
 * appended (the ISR is this node); acks=0 gets no response, or a closed connection if a partition failed, so the
 * producer refreshes its metadata. Transactional batches are refused (INVALID_TXN_STATE): no transaction
 * coordinator runs to end them.
 */
public final class ProduceHandler implements ApiHandler {

    private final ReplicaManager replicaManager;
    private final Supplier<MetadataImage> metadata;

    /**
     * A handler appending through {@code replicaManager}.
     *
     * @param metadata the current cluster metadata, to resolve topic ids
     */
    public ProduceHandler(ReplicaManager replicaManager, Supplier<MetadataImage> metadata) {
        this.replicaManager = Objects.requireNonNull(replicaManager, "replicaManager");
        this.metadata = Objects.requireNonNull(metadata, "metadata");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.PRODUCE;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        ProduceRequest produce = (ProduceRequest) request.body();
        short version = produce.version();
        MetadataImage image = metadata.get();
        Map<TopicPartition, ByteBuffer> entries = new LinkedHashMap<>();
        List<Answer> answers = new ArrayList<>();
        for (ProduceRequestData.TopicProduceData topic : produce.data().topicData()) {
            Optional<String> name = version >= 13 ? image.topic(WireIds.fromWire(topic.topicId())).map(TopicImage::name)
                    : Optional.of(topic.name());
            for (ProduceRequestData.PartitionProduceData partition : topic.partitionData()) {
                Answer answer = new Answer(topic, partition.index(), name.orElse(null));
                answers.add(answer);
                if (name.isEmpty()) {
                    answer.result = ProducePartitionResult.failed(Errors.UNKNOWN_TOPIC_ID, null);
                } else if (partition.index() < 0 || name.get().isEmpty()) {
                    answer.result = ProducePartitionResult.failed(Errors.UNKNOWN_TOPIC_OR_PARTITION, null);
                } else {
                    answer.result = validate(version, partition);
                    if (answer.result == null) {
                        entries.put(answer.topicPartition(), ((MemoryRecords) partition.records()).buffer());
                    }
                }
            }
        }
        Map<TopicPartition, ProducePartitionResult> appended = replicaManager.appendRecords(produce.acks(), false,
                AppendOrigin.CLIENT, entries);
        for (Answer answer : answers) {
            if (answer.result == null) {
                answer.result = appended.get(answer.topicPartition());
            }
        }
        return CompletableFuture.completedFuture(respond(produce.acks(), answers));
    }

    // ProduceRequest.validateRecords: one batch of magic 2, no ZSTD before v7; null records are no batch.
    private static ProducePartitionResult validate(short version, ProduceRequestData.PartitionProduceData partition) {
        if (!(partition.records() instanceof MemoryRecords records)) {
            return ProducePartitionResult.failed(Errors.INVALID_RECORD, "Produce requests must carry records");
        }
        try {
            ProduceRequest.validateRecords(version, records);
        } catch (ApiException e) {
            return ProducePartitionResult.failed(Errors.forException(e), e.getMessage());
        }
        // No transaction coordinator runs here to end a transaction: one begun would hold back the last stable
        // offset for good. Kafka answers a transactional write its coordinator cannot verify this way.
        if (records.batches().iterator().next().isTransactional()) {
            return ProducePartitionResult.failed(Errors.INVALID_TXN_STATE,
                    "Transactional writes are not supported by this broker");
        }
        return null;
    }

    private static Response respond(short acks, List<Answer> answers) {
        if (acks == 0) {
            Optional<Answer> failed = answers.stream().filter(a -> a.result.error() != Errors.NONE).findFirst();
            return failed.isEmpty() ? Response.none() : Response.closeConnection("acks=0 produce to "
                    + failed.get().topicName + "-" + failed.get().partition + " failed: " + failed.get().result.error());
        }
        ProduceResponseData response = new ProduceResponseData().setThrottleTimeMs(0);
        for (Answer answer : answers) {
            ProduceResponseData.TopicProduceResponse topic = response.responses()
                    .find(answer.topic.name(), answer.topic.topicId());
            if (topic == null) {
                topic = new ProduceResponseData.TopicProduceResponse().setName(answer.topic.name())
                        .setTopicId(answer.topic.topicId());
                response.responses().add(topic);
            }
            topic.partitionResponses().add(partitionResponse(answer.partition, answer.result));
        }
        return Response.send(response);
    }

    private static ProduceResponseData.PartitionProduceResponse partitionResponse(int index,
            ProducePartitionResult result) {
        List<ProduceResponseData.BatchIndexAndErrorMessage> recordErrors = result.recordErrors().stream()
                .map(e -> new ProduceResponseData.BatchIndexAndErrorMessage().setBatchIndex(e.batchIndex())
                        .setBatchIndexErrorMessage(e.message()))
                .toList();
        return new ProduceResponseData.PartitionProduceResponse().setIndex(index)
                .setErrorCode(result.error().code()).setErrorMessage(result.errorMessage())
                .setBaseOffset(result.baseOffset()).setLogAppendTimeMs(result.logAppendTime())
                .setLogStartOffset(result.logStartOffset()).setRecordErrors(new ArrayList<>(recordErrors));
    }

    /** One partition of the request and its result. */
    private static final class Answer {
        final ProduceRequestData.TopicProduceData topic;
        final int partition;
        final String topicName;
        ProducePartitionResult result;

        Answer(ProduceRequestData.TopicProduceData topic, int partition, String topicName) {
            this.topic = topic;
            this.partition = partition;
            this.topicName = topicName;
        }

        TopicPartition topicPartition() {
            return new TopicPartition(topicName, partition);
        }
    }
}
