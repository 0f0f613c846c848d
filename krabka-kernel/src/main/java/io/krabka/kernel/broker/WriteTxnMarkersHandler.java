package io.krabka.kernel.broker;

import io.krabka.kernel.log.TransactionResult;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import io.krabka.kernel.transaction.TransactionCoordinator;
import io.krabka.kernel.transaction.TransactionVersion;
import io.krabka.spi.common.TopicPartition;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.WriteTxnMarkersRequest;
import org.apache.kafka.common.requests.WriteTxnMarkersRequest.TxnMarkerEntry;
import org.apache.kafka.common.requests.WriteTxnMarkersResponse;
import org.apache.kafka.common.resource.Resource;
import org.apache.kafka.common.resource.ResourceType;

/**
 * WriteTxnMarkers (v1-2), as a partition leader answers Kafka's {@code handleWriteTxnMarkersRequest}: each marker
 * written to each of its partitions this node has, UNKNOWN_TOPIC_OR_PARTITION for one it has not. Krabka's own
 * coordinator writes its markers in-process; this is what {@code Admin.abortTransaction} ({@code
 * kafka-transactions.sh abort}) sends to end a hanging transaction. ALTER or CLUSTER_ACTION on the cluster is needed
 * (CLUSTER_AUTHORIZATION_FAILED).
 */
public final class WriteTxnMarkersHandler implements ApiHandler {

    private final AuthHelper auth;
    private final TransactionCoordinator coordinator;
    private final Supplier<MetadataImage> metadata;

    /** A handler writing through {@code coordinator}'s marker writer; {@code metadata} tells what partitions exist. */
    public WriteTxnMarkersHandler(
            AuthHelper auth, TransactionCoordinator coordinator, Supplier<MetadataImage> metadata) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
        this.metadata = Objects.requireNonNull(metadata, "metadata");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.WRITE_TXN_MARKERS;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        // ALTER on the cluster (its denial not logged), else CLUSTER_ACTION, else the request is refused.
        if (!auth.authorize(request, AclOperation.ALTER, ResourceType.CLUSTER, Resource.CLUSTER_NAME, true, false, 1)) {
            auth.authorizeClusterOperation(request, AclOperation.CLUSTER_ACTION);
        }
        MetadataImage image = metadata.get();
        Map<Long, Map<org.apache.kafka.common.TopicPartition, Errors>> errors = new HashMap<>();
        for (TxnMarkerEntry marker : ((WriteTxnMarkersRequest) request.body()).markers()) {
            Map<org.apache.kafka.common.TopicPartition, Errors> markerErrors =
                    errors.computeIfAbsent(marker.producerId(), id -> new HashMap<>());
            TransactionResult result =
                    marker.transactionResult() == org.apache.kafka.common.requests.TransactionResult.COMMIT
                            ? TransactionResult.COMMIT
                            : TransactionResult.ABORT;
            for (org.apache.kafka.common.TopicPartition tp : marker.partitions()) {
                boolean exists = image.topic(tp.topic())
                        .map(topic -> topic.partitions().containsKey(tp.partition()))
                        .orElse(false);
                markerErrors.put(
                        tp,
                        exists
                                ? coordinator.writeTxnMarker(
                                        marker.producerId(),
                                        marker.producerEpoch(),
                                        result,
                                        marker.coordinatorEpoch(),
                                        TransactionVersion.fromFeatureLevel(marker.transactionVersion()),
                                        new TopicPartition(tp.topic(), tp.partition()))
                                : Errors.UNKNOWN_TOPIC_OR_PARTITION);
            }
        }
        return CompletableFuture.completedFuture(Response.send(new WriteTxnMarkersResponse(errors).data()));
    }
}
