package io.krabka.kernel.log;

import java.io.Serial;

/**
 * A batch the producer state refuses: its epoch, sequence or transaction state does not follow from what the
 * producer wrote before. Each subclass is one of Kafka's errors, under Kafka's name; the request layer maps them
 * to error codes.
 */
public abstract sealed class ProducerStateException extends RuntimeException
        permits InvalidProducerEpochException,
                OutOfOrderSequenceException,
                InvalidTxnStateException,
                TransactionCoordinatorFencedException {

    @Serial
    private static final long serialVersionUID = 1L;

    ProducerStateException(String message) {
        super(message);
    }
}
