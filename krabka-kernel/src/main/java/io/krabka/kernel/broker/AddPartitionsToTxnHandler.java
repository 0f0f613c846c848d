package io.krabka.kernel.broker;

import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import io.krabka.kernel.transaction.TransactionCoordinator;
import io.krabka.kernel.transaction.TransactionVersion;
import io.krabka.spi.common.TopicPartition;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.message.AddPartitionsToTxnRequestData.AddPartitionsToTxnTransaction;
import org.apache.kafka.common.message.AddPartitionsToTxnResponseData;
import org.apache.kafka.common.message.AddPartitionsToTxnResponseData.AddPartitionsToTxnResult;
import org.apache.kafka.common.message.AddPartitionsToTxnResponseData.AddPartitionsToTxnResultCollection;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.AddPartitionsToTxnRequest;
import org.apache.kafka.common.requests.AddPartitionsToTxnResponse;
import org.apache.kafka.common.resource.ResourceType;

/**
 * AddPartitionsToTxn, as Kafka's {@code handleAddPartitionsToTxnRequest}: v0-3 from a producer (one transaction,
 * transaction version 0), v4-5 from partition leaders (a batch of transactions, each an add at transaction version 2
 * or a verification, KIP-890). A transaction naming an internal topic (TOPIC_AUTHORIZATION_FAILED, as Kafka's
 * authorization filters them out) or a partition that does not exist (UNKNOWN_TOPIC_OR_PARTITION) adds nothing: its
 * other partitions get OPERATION_NOT_ATTEMPTED. Before v2 PRODUCER_FENCED is INVALID_PRODUCER_EPOCH. Authorized as
 * Kafka's: v4+ needs CLUSTER_ACTION (the request refused otherwise); before v4 WRITE on the transactional id
 * (TRANSACTIONAL_ID_AUTHORIZATION_FAILED) and on each topic (TOPIC_AUTHORIZATION_FAILED).
 */
public final class AddPartitionsToTxnHandler implements ApiHandler {

    private final AuthHelper auth;
    private final TransactionCoordinator coordinator;
    private final Supplier<MetadataImage> metadata;

    /** A handler answering through {@code coordinator}; {@code metadata} tells which partitions exist. */
    public AddPartitionsToTxnHandler(
            AuthHelper auth, TransactionCoordinator coordinator, Supplier<MetadataImage> metadata) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
        this.metadata = Objects.requireNonNull(metadata, "metadata");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.ADD_PARTITIONS_TO_TXN;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        short version = request.apiVersion();
        AddPartitionsToTxnRequest add = (AddPartitionsToTxnRequest) request.body();
        if (version < 4) {
            add = add.normalizeRequest();
        }
        // From v4 the request comes from a broker (verifying a transactional produce): CLUSTER_ACTION.
        if (version >= 4) {
            auth.authorizeClusterOperation(request, AclOperation.CLUSTER_ACTION);
        }
        Map<String, List<org.apache.kafka.common.TopicPartition>> byTransaction = add.partitionsByTransaction();
        AddPartitionsToTxnResultCollection results = new AddPartitionsToTxnResultCollection();
        for (AddPartitionsToTxnTransaction transaction : add.data().transactions()) {
            if (transaction.transactionalId() == null) {
                throw new InvalidRequestException("Transactional ID can not be null in request.");
            }
            results.add(handle(request, add, transaction, byTransaction.get(transaction.transactionalId())));
        }
        AddPartitionsToTxnResponseData response = new AddPartitionsToTxnResponseData().setThrottleTimeMs(0);
        if (version < 4) {
            response.setResultsByTopicV3AndBelow(results.iterator().next().topicResults());
        } else {
            response.setResultsByTransaction(results);
        }
        return CompletableFuture.completedFuture(Response.send(response));
    }

    private AddPartitionsToTxnResult handle(
            Request context,
            AddPartitionsToTxnRequest request,
            AddPartitionsToTxnTransaction transaction,
            List<org.apache.kafka.common.TopicPartition> asked) {
        short version = request.version();
        String transactionalId = transaction.transactionalId();
        // A client (before v4) needs WRITE on the transactional id and on each topic; internal topics are never its.
        if (version < 4
                && !auth.authorize(context, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, transactionalId)) {
            return request.errorResponseForTransaction(transactionalId, Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED);
        }
        Predicate<String> writable = version < 4
                ? auth.filterByAuthorized(
                        context,
                        AclOperation.WRITE,
                        ResourceType.TOPIC,
                        asked.stream()
                                .filter(tp -> !Topic.isInternal(tp.topic()))
                                .toList(),
                        org.apache.kafka.common.TopicPartition::topic)
                : topic -> true;
        MetadataImage image = metadata.get();
        Map<org.apache.kafka.common.TopicPartition, Errors> refused = new HashMap<>();
        Set<TopicPartition> partitions = new HashSet<>();
        for (org.apache.kafka.common.TopicPartition tp : asked) {
            boolean exists = image.topic(tp.topic())
                    .map(topic -> topic.partitions().containsKey(tp.partition()))
                    .orElse(false);
            if (version < 4 && (Topic.isInternal(tp.topic()) || !writable.test(tp.topic()))) {
                refused.put(tp, Errors.TOPIC_AUTHORIZATION_FAILED);
            } else if (!exists) {
                refused.put(tp, Errors.UNKNOWN_TOPIC_OR_PARTITION);
            } else {
                partitions.add(new TopicPartition(tp.topic(), tp.partition()));
            }
        }
        if (!refused.isEmpty()) {
            Map<org.apache.kafka.common.TopicPartition, Errors> errors = new HashMap<>(refused);
            partitions.forEach(tp -> errors.put(
                    new org.apache.kafka.common.TopicPartition(tp.topic(), tp.partition()),
                    Errors.OPERATION_NOT_ATTEMPTED));
            return AddPartitionsToTxnResponse.resultForTransaction(transactionalId, errors);
        }
        if (transaction.verifyOnly()) {
            Map<org.apache.kafka.common.TopicPartition, Errors> errors = new HashMap<>();
            coordinator
                    .verifyPartitions(
                            transactionalId, transaction.producerId(), transaction.producerEpoch(), partitions)
                    .forEach((tp, error) ->
                            errors.put(new org.apache.kafka.common.TopicPartition(tp.topic(), tp.partition()), error));
            return AddPartitionsToTxnResponse.resultForTransaction(transactionalId, errors);
        }
        Errors error = coordinator.addPartitions(
                transactionalId,
                transaction.producerId(),
                transaction.producerEpoch(),
                partitions,
                version > 3 ? TransactionVersion.TV_2 : TransactionVersion.TV_0);
        if (version < 2 && error == Errors.PRODUCER_FENCED) {
            error = Errors.INVALID_PRODUCER_EPOCH;
        }
        return request.errorResponseForTransaction(transactionalId, error);
    }
}
