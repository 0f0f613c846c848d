package io.krabka.kernel.broker;

import io.krabka.kernel.fetch.FetchContext;
import io.krabka.kernel.fetch.FetchManager;
import io.krabka.kernel.log.AbortedTxn;
import io.krabka.kernel.log.BufferRecords;
import io.krabka.kernel.log.FetchIsolation;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.WireUuids;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import io.krabka.kernel.network.WireRecords;
import io.krabka.kernel.replica.FetchParams;
import io.krabka.kernel.replica.FetchPartition;
import io.krabka.kernel.replica.LogReadResult;
import io.krabka.kernel.replica.ReplicaManager;
import io.krabka.spi.common.TopicPartition;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.TopicIdPartition;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.FetchResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.FetchRequest;
import org.apache.kafka.common.resource.ResourceType;

/**
 * Answers Fetch as Kafka's {@code KafkaApis.handleFetchRequest} for consumers: the request's fetch session
 * ({@link FetchManager}) says which partitions to read; the replica manager reads them (waiting up to
 * {@code MaxWaitMs} for {@code MinBytes}) within {@code fetch.max.bytes}; the records go out as {@link WireRecords},
 * slices of the segment files sent with sendfile. Topics are named before v13 and by id from v13
 * (UNKNOWN_TOPIC_ID for an id the metadata does not have). A fetch from a replica is refused with
 * NOT_LEADER_OR_FOLLOWER: a single node has no followers. Authorized as Kafka's: a consumer needs READ on each
 * topic (TOPIC_AUTHORIZATION_FAILED for its partitions), a replica CLUSTER_ACTION (TOPIC_AUTHORIZATION_FAILED for
 * all).
 */
public final class FetchHandler implements ApiHandler {

    private final AuthHelper auth;
    private final FetchConfig config;
    private final ReplicaManager replicaManager;
    private final FetchManager fetchManager;
    private final Supplier<MetadataImage> metadata;

    /**
     * A handler reading through {@code replicaManager}.
     *
     * @param metadata the current cluster metadata, to resolve topic ids
     */
    public FetchHandler(
            AuthHelper auth,
            FetchConfig config,
            ReplicaManager replicaManager,
            FetchManager fetchManager,
            Supplier<MetadataImage> metadata) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.config = Objects.requireNonNull(config, "config");
        this.replicaManager = Objects.requireNonNull(replicaManager, "replicaManager");
        this.fetchManager = Objects.requireNonNull(fetchManager, "fetchManager");
        this.metadata = Objects.requireNonNull(metadata, "metadata");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.FETCH;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        FetchRequest fetch = (FetchRequest) request.body();
        Map<Uuid, String> topicNames = WireUuids.topicNames(metadata.get());
        LinkedHashMap<TopicIdPartition, FetchRequest.PartitionData> fetchData =
                new LinkedHashMap<>(fetch.fetchData(topicNames));
        if (fetch.isFromFollower()) {
            // A follower needs CLUSTER_ACTION, as in Kafka; one that has it learns that there are no followers here.
            Errors error = auth.authorizeCluster(request, AclOperation.CLUSTER_ACTION)
                    ? Errors.NOT_LEADER_OR_FOLLOWER
                    : Errors.TOPIC_AUTHORIZATION_FAILED;
            LinkedHashMap<TopicIdPartition, FetchResponseData.PartitionData> refused = new LinkedHashMap<>();
            fetchData.keySet().forEach(partition -> refused.put(partition, failed(partition, error)));
            return respond(new FetchContext.Sessionless(fetchData), refused);
        }
        FetchContext context = fetchManager.newContext(
                fetch.version(), fetch.metadata(), false, fetchData, fetch.forgottenTopics(topicNames), topicNames);
        LinkedHashMap<TopicIdPartition, FetchRequest.PartitionData> toRead = context.partitionsToRead();
        // READ on each topic, a reference per partition; an unknown topic id is answered before it is asked.
        Predicate<String> authorized = auth.filterByAuthorized(
                request, AclOperation.READ, ResourceType.TOPIC, toRead.keySet(), TopicIdPartition::topic);
        List<FetchPartition> readable = new ArrayList<>();
        toRead.forEach((partition, data) -> {
            if (partition.topic() != null
                    && authorized.test(partition.topic())
                    && !partition.topic().isEmpty()
                    && partition.partition() >= 0) {
                readable.add(new FetchPartition(
                        new io.krabka.spi.common.TopicIdPartition(
                                WireUuids.fromWire(partition.topicId()),
                                new TopicPartition(partition.topic(), partition.partition())),
                        data.fetchOffset,
                        data.maxBytes,
                        data.currentLeaderEpoch));
            }
        });
        FetchIsolation isolation = fetch.isolationLevel() == IsolationLevel.READ_COMMITTED
                ? FetchIsolation.TXN_COMMITTED
                : FetchIsolation.HIGH_WATERMARK;
        FetchParams params = new FetchParams(
                fetch.replicaId(),
                fetch.maxWait(),
                fetch.minBytes(),
                Math.min(Math.max(0, fetch.maxBytes()), config.fetchMaxBytes()),
                isolation);
        return replicaManager.fetchMessages(params, readable).thenCompose(results -> {
            LinkedHashMap<TopicIdPartition, FetchResponseData.PartitionData> reads = new LinkedHashMap<>();
            int next = 0;
            for (TopicIdPartition partition : toRead.keySet()) {
                if (next < results.size() && matches(results.get(next), partition)) {
                    reads.put(partition, partitionData(results.get(next++)));
                } else {
                    Errors error = partition.topic() == null
                            ? Errors.UNKNOWN_TOPIC_ID
                            : authorized.test(partition.topic())
                                    ? Errors.UNKNOWN_TOPIC_OR_PARTITION
                                    : Errors.TOPIC_AUTHORIZATION_FAILED;
                    reads.put(partition, failed(partition, error));
                }
            }
            return respond(context, reads);
        });
    }

    private static CompletableFuture<Response> respond(
            FetchContext context, LinkedHashMap<TopicIdPartition, FetchResponseData.PartitionData> reads) {
        return CompletableFuture.completedFuture(
                Response.send(context.updateAndGenerateResponseData(reads).data()));
    }

    private static boolean matches(LogReadResult result, TopicIdPartition partition) {
        TopicPartition read = result.partition().topicIdPartition().topicPartition();
        return read.partition() == partition.partition() && read.topic().equals(partition.topic());
    }

    private static FetchResponseData.PartitionData failed(TopicIdPartition partition, Errors error) {
        return new FetchResponseData.PartitionData()
                .setPartitionIndex(partition.partition())
                .setErrorCode(error.code())
                .setHighWatermark(-1)
                .setLastStableOffset(-1)
                .setLogStartOffset(-1)
                .setRecords(new WireRecords(BufferRecords.EMPTY));
    }

    private static FetchResponseData.PartitionData partitionData(LogReadResult result) {
        List<FetchResponseData.AbortedTransaction> aborted = result.abortedTransactions()
                .map(list -> list.stream().map(FetchHandler::abortedTransaction).toList())
                .orElse(null);
        return new FetchResponseData.PartitionData()
                .setPartitionIndex(result.partition().topicIdPartition().partition())
                .setErrorCode(result.error().code())
                .setHighWatermark(result.highWatermark())
                .setLastStableOffset(result.lastStableOffset())
                .setLogStartOffset(result.logStartOffset())
                .setAbortedTransactions(aborted == null ? null : new ArrayList<>(aborted))
                .setPreferredReadReplica(-1)
                .setRecords(new WireRecords(result.records()));
    }

    private static FetchResponseData.AbortedTransaction abortedTransaction(AbortedTxn txn) {
        return new FetchResponseData.AbortedTransaction()
                .setProducerId(txn.producerId())
                .setFirstOffset(txn.firstOffset());
    }
}
