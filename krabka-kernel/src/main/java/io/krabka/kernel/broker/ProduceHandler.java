package io.krabka.kernel.broker;

import io.krabka.kernel.log.AppendOrigin;
import io.krabka.kernel.log.ProducerAppendInfo;
import io.krabka.kernel.log.VerificationGuard;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.TopicImage;
import io.krabka.kernel.metadata.WireUuids;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import io.krabka.kernel.replica.ProducePartitionResult;
import io.krabka.kernel.replica.ReplicaManager;
import io.krabka.kernel.transaction.TransactionCoordinator;
import io.krabka.spi.common.TopicPartition;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.errors.InvalidPidMappingException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.message.ProduceRequestData;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.apache.kafka.common.requests.ProduceRequest;
import org.apache.kafka.common.resource.ResourceType;

/**
 * Answers Produce as Kafka's {@code KafkaApis.handleProduceRequest}: topics by name, or by topic id from v13
 * (UNKNOWN_TOPIC_ID); each partition's records checked as {@code ProduceRequest.validateRecords} (one magic 2
 * batch, no ZSTD before v7), then appended by the replica manager. acks=1 and acks=all are answered once
 * appended (the ISR is this node); acks=0 gets no response, or a closed connection if a partition failed, so the
 * producer refreshes its metadata. The partitions where a transactional batch would open a transaction are first
 * added to it, or verified to be in it, by the transaction coordinator (KIP-890, {@link TransactionalProduce}); the
 * batches of one request must all be of one producer (INVALID_PRODUCER_ID_MAPPING otherwise, as Kafka's).
 * Authorized as Kafka's: transactional records need WRITE on the request's transactional id (the whole request
 * refused with TRANSACTIONAL_ID_AUTHORIZATION_FAILED), each partition WRITE on its topic (TOPIC_AUTHORIZATION_FAILED).
 */
public final class ProduceHandler implements ApiHandler {

    private final AuthHelper auth;
    private final ReplicaManager replicaManager;
    private final Supplier<MetadataImage> metadata;
    private final TransactionalProduce transactions;

    /**
     * A handler appending through {@code replicaManager}.
     *
     * @param metadata the current cluster metadata, to resolve topic ids
     */
    public ProduceHandler(
            AuthHelper auth,
            ReplicaManager replicaManager,
            Supplier<MetadataImage> metadata,
            TransactionCoordinator coordinator) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.replicaManager = Objects.requireNonNull(replicaManager, "replicaManager");
        this.metadata = Objects.requireNonNull(metadata, "metadata");
        this.transactions = new TransactionalProduce(replicaManager, coordinator);
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
        List<Slot> slots = new ArrayList<>();
        boolean hasTransactionalRecords = false;
        for (ProduceRequestData.TopicProduceData topic : produce.data().topicData()) {
            Optional<String> name = version >= 13
                    ? image.topic(WireUuids.fromWire(topic.topicId())).map(TopicImage::name)
                    : Optional.of(topic.name());
            for (ProduceRequestData.PartitionProduceData partition : topic.partitionData()) {
                slots.add(new Slot(
                        topic,
                        partition,
                        name.orElse(null),
                        name.isEmpty() ? ProducePartitionResult.failed(Errors.UNKNOWN_TOPIC_ID, null) : null));
                hasTransactionalRecords |= firstBatchTransactional(partition);
            }
        }
        // Kafka's order: the transactional id of transactional records (the whole request refused), then WRITE on
        // each topic (per partition, before any other check), then the partition and its records.
        if (hasTransactionalRecords
                && (produce.transactionalId() == null
                        || !auth.authorize(
                                request,
                                AclOperation.WRITE,
                                ResourceType.TRANSACTIONAL_ID,
                                produce.transactionalId()))) {
            throw new TransactionalIdAuthorizationException(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.message());
        }
        Predicate<String> writable =
                auth.filterByAuthorized(request, AclOperation.WRITE, ResourceType.TOPIC, slots, Slot::topicName);
        Map<TopicPartition, ByteBuffer> entries = new LinkedHashMap<>();
        Map<TopicPartition, MutableRecordBatch> transactional = new LinkedHashMap<>();
        for (int i = 0; i < slots.size(); i++) {
            Slot slot = slots.get(i);
            if (slot.refused() != null) {
                continue;
            }
            ProduceRequestData.PartitionProduceData partition = slot.data();
            ProducePartitionResult refused;
            if (!writable.test(slot.topicName())) {
                refused = ProducePartitionResult.failed(Errors.TOPIC_AUTHORIZATION_FAILED, null);
            } else if (partition.index() < 0 || slot.topicName().isEmpty()) {
                refused = ProducePartitionResult.failed(Errors.UNKNOWN_TOPIC_OR_PARTITION, null);
            } else {
                refused = validate(version, partition);
            }
            if (refused != null) {
                slots.set(i, new Slot(slot.topic(), partition, slot.topicName(), refused));
            } else {
                MemoryRecords records = (MemoryRecords) partition.records();
                entries.put(slot.topicPartition(), records.buffer());
                MutableRecordBatch batch = records.batches().iterator().next();
                if (batch.isValid() && batch.hasProducerId() && batch.isTransactional()) {
                    transactional.put(slot.topicPartition(), batch);
                }
            }
        }
        Map<TopicPartition, ProducePartitionResult> results = new LinkedHashMap<>();
        Map<TopicPartition, VerificationGuard> guards = new LinkedHashMap<>();
        if (!transactional.isEmpty()) {
            MutableRecordBatch first = transactional.values().iterator().next();
            if (transactional.values().stream()
                    .anyMatch(batch -> batch.producerId() != first.producerId()
                            || batch.producerEpoch() != first.producerEpoch())) {
                throw new InvalidPidMappingException("Transactional records contained more than one producer ID");
            }
            transactions.verify(
                    produce.transactionalId(),
                    first.producerId(),
                    first.producerEpoch(),
                    transactional.keySet(),
                    version,
                    guards,
                    results);
            results.keySet().forEach(entries::remove);
        }
        results.putAll(replicaManager.appendRecords(
                produce.acks(), false, AppendOrigin.CLIENT, entries, ProducerAppendInfo.TV_UNKNOWN, guards));
        return CompletableFuture.completedFuture(respond(produce.acks(), slots, results));
    }

    // Kafka's RequestUtils.hasTransactionalRecords, a partition at a time: whether its first batch is transactional.
    private static boolean firstBatchTransactional(ProduceRequestData.PartitionProduceData partition) {
        if (!(partition.records() instanceof MemoryRecords records)) {
            return false;
        }
        Iterator<MutableRecordBatch> batches = records.batchIterator();
        return batches.hasNext() && batches.next().isTransactional();
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
        return null;
    }

    private static Response respond(
            short acks, List<Slot> slots, Map<TopicPartition, ProducePartitionResult> appended) {
        if (acks == 0) {
            for (Slot slot : slots) {
                ProducePartitionResult result = slot.result(appended);
                if (result.error() != Errors.NONE) {
                    return Response.closeConnection("acks=0 produce to " + slot.topicName + "-" + slot.partition()
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
            topic.partitionResponses().add(partitionResponse(slot.partition(), slot.result(appended)));
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
     * @param data      the request's partition
     * @param topicName the topic's name, null for an unknown topic id
     * @param refused   the answer if the partition was refused before the append, else null
     */
    private record Slot(
            ProduceRequestData.TopicProduceData topic,
            ProduceRequestData.PartitionProduceData data,
            String topicName,
            ProducePartitionResult refused) {

        int partition() {
            return data.index();
        }

        TopicPartition topicPartition() {
            return new TopicPartition(topicName, partition());
        }

        ProducePartitionResult result(Map<TopicPartition, ProducePartitionResult> appended) {
            return refused != null ? refused : appended.get(topicPartition());
        }
    }
}
