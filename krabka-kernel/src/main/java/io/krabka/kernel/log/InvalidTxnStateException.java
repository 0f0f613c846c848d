package io.krabka.kernel.log;

import java.io.Serial;

/** A producer wrote a non-transactional batch while its transaction is open (INVALID_TXN_STATE). Kafka's name. */
public final class InvalidTxnStateException extends ProducerStateException {

    @Serial
    private static final long serialVersionUID = 1L;

    /** A refusal with its reason. */
    public InvalidTxnStateException(String message) {
        super(message);
    }
}
