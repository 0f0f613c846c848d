package io.krabka.kernel.restore.bound;

/**
 * {@code --exclude-producer-id ID}: every record an idempotent or transactional producer wrote is excluded. The
 * producer's transaction markers are kept (see the package documentation).
 *
 * @param producerId the producer id, at least 0 (Kafka's -1 means "no producer")
 */
public record ProducerExclusion(long producerId) {

    /** The flag's name. */
    public static final String FLAG = "--exclude-producer-id";

    /** Checks the id. */
    public ProducerExclusion {
        if (producerId < 0) {
            throw new IllegalArgumentException("producer id must be at least 0: " + producerId);
        }
    }

    /**
     * Parses the flag's value.
     *
     * @throws InvalidRestoreArgumentException naming the flag and the value when it is not a number from 0 to
     *                                         the largest long
     */
    public static ProducerExclusion parse(String value) throws InvalidRestoreArgumentException {
        return new ProducerExclusion(ArgumentText.nonNegative(FLAG, value, "producer id", value, Long.MAX_VALUE));
    }

    /** The flag's value: the id. */
    @Override
    public String toString() {
        return Long.toString(producerId);
    }
}
