package io.krabka.kernel.log;

import java.io.Serial;

/** A producer's batch does not start at the sequence after its last, or a new epoch does not start at 0 (OUT_OF_ORDER_SEQUENCE_NUMBER). Kafka's name. */
public final class OutOfOrderSequenceException extends ProducerStateException {

    @Serial
    private static final long serialVersionUID = 1L;

    /** A refusal with its reason. */
    public OutOfOrderSequenceException(String message) {
        super(message);
    }
}
