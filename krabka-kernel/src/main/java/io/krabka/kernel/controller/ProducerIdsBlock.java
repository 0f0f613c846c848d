package io.krabka.kernel.controller;

/**
 * A block of producer ids given to a broker (Kafka's {@code ProducerIdsBlock}).
 *
 * @param assignedBrokerId the broker
 * @param firstProducerId  the first id of the block
 * @param size             the number of ids
 */
public record ProducerIdsBlock(int assignedBrokerId, long firstProducerId, int size) {

    /** The size of the blocks Kafka's controller gives out. */
    public static final int PRODUCER_ID_BLOCK_SIZE = 1000;

    /** Checks the values. */
    public ProducerIdsBlock {
        if (firstProducerId < 0 || size < 1 || firstProducerId > Long.MAX_VALUE - size) {
            throw new IllegalArgumentException("producer id block of " + size + " from " + firstProducerId);
        }
    }

    /** The first id after the block. */
    public long nextBlockFirstId() {
        return firstProducerId + size;
    }
}
