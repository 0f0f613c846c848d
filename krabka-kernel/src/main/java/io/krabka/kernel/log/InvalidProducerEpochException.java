package io.krabka.kernel.log;

import java.io.Serial;

/** A producer or coordinator wrote with an epoch older than the producer's current one (INVALID_PRODUCER_EPOCH). Kafka's name. */
public final class InvalidProducerEpochException extends ProducerStateException {

    @Serial
    private static final long serialVersionUID = 1L;

    /** A refusal with its reason. */
    public InvalidProducerEpochException(String message) {
        super(message);
    }
}
