package io.krabka.kernel.log;

import java.io.Serial;

/** A transaction marker came from a coordinator older than the last one seen (TRANSACTION_COORDINATOR_FENCED). Kafka's name. */
public final class TransactionCoordinatorFencedException extends ProducerStateException {

    @Serial
    private static final long serialVersionUID = 1L;

    /** A refusal with its reason. */
    public TransactionCoordinatorFencedException(String message) {
        super(message);
    }
}
