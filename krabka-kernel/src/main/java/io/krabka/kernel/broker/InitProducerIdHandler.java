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
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.InitProducerIdResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.InitProducerIdRequest;

/**
 * InitProducerId (v0-5, Kafka 4.4's stable versions: v6's two-phase commit of KIP-939 is not), as Kafka's {@code handleInitProducerIdRequest}: a producer id without an epoch (or the
 * reverse) is INVALID_REQUEST; otherwise the transaction coordinator answers (a new producer id for an idempotent
 * producer, the transactional id's producer id and bumped epoch for a transactional one). Before v4 PRODUCER_FENCED
 * is answered as INVALID_PRODUCER_EPOCH, which older clients know.
 */
public final class InitProducerIdHandler implements ApiHandler {

    private static final long NO_PRODUCER_ID = -1;
    private static final short NO_PRODUCER_EPOCH = -1;

    private final TransactionCoordinator coordinator;

    /** A handler answering through {@code coordinator}. */
    public InitProducerIdHandler(TransactionCoordinator coordinator) {
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.INIT_PRODUCER_ID;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        InitProducerIdRequestData data = ((InitProducerIdRequest) request.body()).data();
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
