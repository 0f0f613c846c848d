package io.krabka.kernel.broker;

import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.message.InitProducerIdRequestData;
import org.apache.kafka.common.message.InitProducerIdResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.InitProducerIdRequest;

/**
 * Answers InitProducerId for idempotent producers as Kafka's transaction coordinator does without a transactional
 * id: a new producer id from the controller's blocks, epoch 0. A producer id without an epoch (or the reverse) is
 * INVALID_REQUEST, an empty transactional id INVALID_REQUEST, as in Kafka. Krabka has no transaction coordinator
 * yet: a transactional id gets COORDINATOR_NOT_AVAILABLE, Kafka's answer while its transaction coordinator is not
 * active, which the client retries until its timeout; transactions are not available.
 */
public final class InitProducerIdHandler implements ApiHandler {

    private static final long NO_PRODUCER_ID = -1;
    private static final short NO_PRODUCER_EPOCH = -1;

    private final ProducerIdManager producerIds;

    /** A handler giving ids from {@code producerIds}. */
    public InitProducerIdHandler(ProducerIdManager producerIds) {
        this.producerIds = Objects.requireNonNull(producerIds, "producerIds");
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
        if (noId != noEpoch) {
            return error(Errors.INVALID_REQUEST);
        }
        if (data.transactionalId() != null) {
            return error(data.transactionalId().isEmpty() ? Errors.INVALID_REQUEST : Errors.COORDINATOR_NOT_AVAILABLE);
        }
        return producerIds
                .generateProducerId()
                .thenApply(id -> Response.send(new InitProducerIdResponseData()
                        .setThrottleTimeMs(0)
                        .setErrorCode(Errors.NONE.code())
                        .setProducerId(id)
                        .setProducerEpoch((short) 0)));
    }

    private static CompletableFuture<Response> error(Errors error) {
        return CompletableFuture.completedFuture(Response.send(new InitProducerIdResponseData()
                .setThrottleTimeMs(0)
                .setErrorCode(error.code())
                .setProducerId(NO_PRODUCER_ID)
                .setProducerEpoch(NO_PRODUCER_EPOCH)));
    }
}
