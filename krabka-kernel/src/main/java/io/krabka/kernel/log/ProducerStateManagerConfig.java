package io.krabka.kernel.log;

/**
 * The broker settings the producer state follows. Kafka's name. {@code producer.id.expiration.ms} and
 * {@code transaction.partition.verification.enable} are dynamic broker settings, so one instance is shared by every
 * partition and may change while they run.
 */
public final class ProducerStateManagerConfig {

    /** How long a producer without an open transaction is remembered after its last write. */
    public static final String PRODUCER_ID_EXPIRATION_MS_CONFIG = "producer.id.expiration.ms";

    /** Kafka's default for {@value #PRODUCER_ID_EXPIRATION_MS_CONFIG}: one day. */
    public static final int DEFAULT_PRODUCER_ID_EXPIRATION_MS = 86_400_000;

    /** Whether a transactional batch that opens a transaction must carry a verification (KIP-890). */
    public static final String TRANSACTION_PARTITION_VERIFICATION_ENABLE_CONFIG =
            "transaction.partition.verification.enable";

    private volatile int producerIdExpirationMs;
    private volatile boolean transactionVerificationEnabled;

    /** Settings with {@code producer.id.expiration.ms} at {@code producerIdExpirationMs}, verification on. */
    public ProducerStateManagerConfig(int producerIdExpirationMs) {
        this(producerIdExpirationMs, true);
    }

    /** Settings with these values. */
    public ProducerStateManagerConfig(int producerIdExpirationMs, boolean transactionVerificationEnabled) {
        setProducerIdExpirationMs(producerIdExpirationMs);
        this.transactionVerificationEnabled = transactionVerificationEnabled;
    }

    /** Kafka's defaults. */
    public static ProducerStateManagerConfig defaults() {
        return new ProducerStateManagerConfig(DEFAULT_PRODUCER_ID_EXPIRATION_MS);
    }

    /** The value of {@value #PRODUCER_ID_EXPIRATION_MS_CONFIG}. */
    public int producerIdExpirationMs() {
        return producerIdExpirationMs;
    }

    /** Changes {@value #PRODUCER_ID_EXPIRATION_MS_CONFIG}; at least 1, as Kafka requires. */
    public void setProducerIdExpirationMs(int producerIdExpirationMs) {
        if (producerIdExpirationMs < 1) {
            throw new IllegalArgumentException(
                    PRODUCER_ID_EXPIRATION_MS_CONFIG + " must be at least 1: " + producerIdExpirationMs);
        }
        this.producerIdExpirationMs = producerIdExpirationMs;
    }

    /** The value of {@value #TRANSACTION_PARTITION_VERIFICATION_ENABLE_CONFIG}. */
    public boolean transactionVerificationEnabled() {
        return transactionVerificationEnabled;
    }

    /** Changes {@value #TRANSACTION_PARTITION_VERIFICATION_ENABLE_CONFIG}. */
    public void setTransactionVerificationEnabled(boolean enabled) {
        this.transactionVerificationEnabled = enabled;
    }
}
