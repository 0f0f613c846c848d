package io.krabka.kernel.transaction;

import io.krabka.spi.common.TopicPartition;
import java.util.Objects;
import java.util.Set;

/**
 * The state a transactional id is to move to, written to {@code __transaction_state} before it takes effect
 * (Kafka's {@code TxnTransitMetadata}).
 *
 * @param producerId               the producer id
 * @param prevProducerId           the producer id before it, or -1
 * @param nextProducerId           the producer id the transaction ends with when its epochs ran out, or -1
 * @param producerEpoch            the epoch
 * @param lastProducerEpoch        the epoch before the last bump, or -1
 * @param txnTimeoutMs             the transaction timeout
 * @param txnState                 the state
 * @param topicPartitions          the partitions of the transaction
 * @param txnStartTimestamp        when the transaction began, or -1
 * @param txnLastUpdateTimestamp   when the id last changed
 * @param clientTransactionVersion the transaction version of the client that caused the change
 */
public record TxnTransitMetadata(
        long producerId,
        long prevProducerId,
        long nextProducerId,
        short producerEpoch,
        short lastProducerEpoch,
        int txnTimeoutMs,
        TransactionState txnState,
        Set<TopicPartition> topicPartitions,
        long txnStartTimestamp,
        long txnLastUpdateTimestamp,
        TransactionVersion clientTransactionVersion) {

    /** Checks and copies. */
    public TxnTransitMetadata {
        Objects.requireNonNull(txnState, "txnState");
        topicPartitions = Set.copyOf(topicPartitions);
        Objects.requireNonNull(clientTransactionVersion, "clientTransactionVersion");
    }
}
