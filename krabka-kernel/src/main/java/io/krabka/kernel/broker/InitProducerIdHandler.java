package io.krabka.kernel.broker;

import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import io.krabka.kernel.transaction.TransactionCoordinator;
import io.krabka.kernel.transaction.TransactionCoordinator.InitProducerIdResult;
import io.krabka.kernel.transaction.TransactionCoordinator.ProducerIdAndEpoch;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.errors.ClusterAuthorizationException;
import org.apache.kafka.common.errors.TransactionalIdAuthorizationException;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.InitProducerIdResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.InitProducerIdRequest;
import org.apache.kafka.common.resource.Resource;
import org.apache.kafka.common.resource.ResourceType;

/**
 * InitProducerId (v0-5, Kafka 4.4's stable versions: v6's two-phase commit of KIP-939 is not), as Kafka's {@code handleInitProducerIdRequest}: a producer id without an epoch (or the
 * reverse) is INVALID_REQUEST; otherwise the transaction coordinator answers (a new producer id for an idempotent
 * producer, the transactional id's producer id and bumped epoch for a transactional one). Before v4 PRODUCER_FENCED
 * is answered as INVALID_PRODUCER_EPOCH, which older clients know. Authorized as Kafka's: WRITE on the transactional
 * id (TRANSACTIONAL_ID_AUTHORIZATION_FAILED), or for an idempotent producer IDEMPOTENT_WRITE on the cluster or WRITE
 * on any topic (CLUSTER_AUTHORIZATION_FAILED).
 */
public final class InitProducerIdHandler implements ApiHandler {

    private static final long NO_PRODUCER_ID = -1;
    private static final short NO_PRODUCER_EPOCH = -1;

    private final AuthHelper auth;
    private final TransactionCoordinator coordinator;

    /** A handler answering through {@code coordinator}. */
    public InitProducerIdHandler(AuthHelper auth, TransactionCoordinator coordinator) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.INIT_PRODUCER_ID;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        InitProducerIdRequestData data = ((InitProducerIdRequest) request.body()).data();
        // A transactional producer needs WRITE on its id; an idempotent one IDEMPOTENT_WRITE on the cluster (a denial
        // not logged) or WRITE on some topic, as Kafka has allowed since KIP-679.
        if (data.transactionalId() != null) {
            if (!auth.authorize(request, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, data.transactionalId())) {
                throw new TransactionalIdAuthorizationException(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.message());
            }
        } else if (!auth.authorize(
                        request,
                        AclOperation.IDEMPOTENT_WRITE,
                        ResourceType.CLUSTER,
                        Resource.CLUSTER_NAME,
                        true,
                        false,
                        1)
                && !auth.authorizeByResourceType(request, AclOperation.WRITE, ResourceType.TOPIC)) {
            throw new ClusterAuthorizationException(Errors.CLUSTER_AUTHORIZATION_FAILED.message());
        }
        boolean noId = data.producerId() == NO_PRODUCER_ID;
        boolean noEpoch = data.producerEpoch() == NO_PRODUCER_EPOCH;
        InitProducerIdResult result;
        if (noId != noEpoch) {
            result = new InitProducerIdResult(NO_PRODUCER_ID, NO_PRODUCER_EPOCH, Errors.INVALID_REQUEST);
        } else {
            result = coordinator.initProducerId(
                    data.transactionalId(),
                    data.transactionTimeoutMs(),
                    noId
                            ? Optional.empty()
                            : Optional.of(new ProducerIdAndEpoch(data.producerId(), data.producerEpoch())));
        }
        Errors error = request.apiVersion() < 4 && result.error() == Errors.PRODUCER_FENCED
                ? Errors.INVALID_PRODUCER_EPOCH
                : result.error();
        return CompletableFuture.completedFuture(Response.send(new InitProducerIdResponseData()
                .setThrottleTimeMs(0)
                .setErrorCode(error.code())
                .setProducerId(result.producerId())
                .setProducerEpoch(result.producerEpoch())));
    }
}
