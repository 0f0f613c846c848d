package io.krabka.kernel.broker;

import io.krabka.kernel.log.AppendOrigin;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.TopicImage;
import io.krabka.kernel.metadata.WireUuids;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import io.krabka.kernel.replica.ProducePartitionResult;
import io.krabka.kernel.replica.ReplicaManager;
import io.krabka.spi.common.TopicPartition;
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
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.apache.kafka.common.requests.ProduceRequest;

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
        List<Slot> slots = new ArrayList<>();
        for (ProduceRequestData.TopicProduceData topic : produce.data().topicData()) {
            Optional<String> name = version >= 13
                    ? image.topic(WireUuids.fromWire(topic.topicId())).map(TopicImage::name)
                    : Optional.of(topic.name());
            for (ProduceRequestData.PartitionProduceData partition : topic.partitionData()) {
                ProducePartitionResult refused;
                if (name.isEmpty()) {
                    refused = ProducePartitionResult.failed(Errors.UNKNOWN_TOPIC_ID, null);
                } else if (partition.index() < 0 || name.get().isEmpty()) {
                    refused = ProducePartitionResult.failed(Errors.UNKNOWN_TOPIC_OR_PARTITION, null);
                } else {
                    refused = validate(version, partition);
                }
                Slot slot = new Slot(topic, partition.index(), name.orElse(null), refused);
                slots.add(slot);
                if (refused == null) {
                    entries.put(slot.topicPartition(), ((MemoryRecords) partition.records()).buffer());
                }
            }
        }
        Map<TopicPartition, ProducePartitionResult> appended =
                replicaManager.appendRecords(produce.acks(), false, AppendOrigin.CLIENT, entries);
        return CompletableFuture.completedFuture(respond(produce.acks(), slots, appended));
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
        // offset for good. Kafka answers a transactional write its coordinator cannot verify this way. A corrupt
        // batch is left to the log, which answers CORRUPT_MESSAGE.
        MutableRecordBatch batch = records.batches().iterator().next();
        if (batch.isValid() && batch.isTransactional()) {
            return ProducePartitionResult.failed(
                    Errors.INVALID_TXN_STATE, "Transactional writes are not supported by this broker");
        }
        return null;
    }

    private static Response respond(
            short acks, List<Slot> slots, Map<TopicPartition, ProducePartitionResult> appended) {
        if (acks == 0) {
            for (Slot slot : slots) {
                ProducePartitionResult result = slot.result(appended);
                if (result.error() != Errors.NONE) {
                    return Response.closeConnection("acks=0 produce to " + slot.topicName + "-" + slot.partition
                            + " failed: " + result.error());
                }
            }
            return Response.none();
        }
        ProduceResponseData response = new ProduceResponseData().setThrottleTimeMs(0);
        for (Slot slot : slots) {
            ProduceResponseData.TopicProduceResponse topic =
                    response.responses().find(slot.topic.name(), slot.topic.topicId());
            if (topic == null) {
                topic = new ProduceResponseData.TopicProduceResponse()
                        .setName(slot.topic.name())
                        .setTopicId(slot.topic.topicId());
                response.responses().add(topic);
            }
            topic.partitionResponses().add(partitionResponse(slot.partition, slot.result(appended)));
        }
        return Response.send(response);
    }

    private static ProduceResponseData.PartitionProduceResponse partitionResponse(
            int index, ProducePartitionResult result) {
        List<ProduceResponseData.BatchIndexAndErrorMessage> recordErrors = result.recordErrors().stream()
                .map(e -> new ProduceResponseData.BatchIndexAndErrorMessage()
                        .setBatchIndex(e.batchIndex())
                        .setBatchIndexErrorMessage(e.message()))
                .toList();
        return new ProduceResponseData.PartitionProduceResponse()
                .setIndex(index)
                .setErrorCode(result.error().code())
                .setErrorMessage(result.errorMessage())
                .setBaseOffset(result.baseOffset())
                .setLogAppendTimeMs(result.logAppendTime())
                .setLogStartOffset(result.logStartOffset())
                .setRecordErrors(new ArrayList<>(recordErrors));
    }

    /**
     * One partition of the request.
     *
     * @param topic     the request's topic
     * @param partition the partition index
     * @param topicName the topic's name, null for an unknown topic id
     * @param refused   the answer if the partition was refused before the append, else null
     */
    private record Slot(
            ProduceRequestData.TopicProduceData topic,
            int partition,
            String topicName,
            ProducePartitionResult refused) {

        TopicPartition topicPartition() {
            return new TopicPartition(topicName, partition);
        }

        ProducePartitionResult result(Map<TopicPartition, ProducePartitionResult> appended) {
            return refused != null ? refused : appended.get(topicPartition());
        }
    }
}
