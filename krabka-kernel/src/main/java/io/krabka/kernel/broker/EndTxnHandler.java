package io.krabka.kernel.broker;

import io.krabka.kernel.log.TransactionResult;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import io.krabka.kernel.transaction.TransactionCoordinator;
import io.krabka.kernel.transaction.TransactionCoordinator.EndTxnResult;
import io.krabka.kernel.transaction.TransactionVersion;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.EndTxnRequestData;
import org.apache.kafka.common.message.EndTxnResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.EndTxnRequest;
import org.apache.kafka.common.resource.ResourceType;

/**
 * EndTxn (v0-5), as Kafka's {@code handleEndTxnRequest}: v5 is a producer at transaction version 2, whose answer
 * carries the producer id and epoch to continue with; before v2 PRODUCER_FENCED is INVALID_PRODUCER_EPOCH. WRITE on
 * the transactional id is needed (TRANSACTIONAL_ID_AUTHORIZATION_FAILED).
 */
public final class EndTxnHandler implements ApiHandler {

    private final AuthHelper auth;
    private final TransactionCoordinator coordinator;

    /** A handler answering through {@code coordinator}. */
    public EndTxnHandler(AuthHelper auth, TransactionCoordinator coordinator) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.END_TXN;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        EndTxnRequestData data = ((EndTxnRequest) request.body()).data();
        if (!auth.authorize(request, AclOperation.WRITE, ResourceType.TRANSACTIONAL_ID, data.transactionalId())) {
            return CompletableFuture.completedFuture(Response.send(new EndTxnResponseData()
                    .setThrottleTimeMs(0)
                    .setErrorCode(Errors.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.code())));
        }
        EndTxnResult result = coordinator.endTransaction(
                data.transactionalId(),
                data.producerId(),
                data.producerEpoch(),
                data.committed() ? TransactionResult.COMMIT : TransactionResult.ABORT,
                request.apiVersion() > 4 ? TransactionVersion.TV_2 : TransactionVersion.TV_0);
        Errors error = request.apiVersion() < 2 && result.error() == Errors.PRODUCER_FENCED
                ? Errors.INVALID_PRODUCER_EPOCH
                : result.error();
        return CompletableFuture.completedFuture(Response.send(new EndTxnResponseData()
                .setThrottleTimeMs(0)
                .setErrorCode(error.code())
                .setProducerId(result.producerId())
                .setProducerEpoch(result.producerEpoch())));
    }
}
