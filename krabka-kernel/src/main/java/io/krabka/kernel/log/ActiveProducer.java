package io.krabka.kernel.log;

/**
 * What a partition knows of one producer, as DescribeProducers reports it (Kafka's {@code UnifiedLog.activeProducers}).
 *
 * @param lastSequence          the sequence of its last record, or -1
 * @param lastTimestamp         the timestamp of its last batch, or -1
 * @param coordinatorEpoch      the coordinator epoch of its last marker, or -1
 * @param currentTxnStartOffset the first offset of its open transaction, or -1
 */
public record ActiveProducer(
        long producerId,
        short producerEpoch,
        int lastSequence,
        long lastTimestamp,
        int coordinatorEpoch,
        long currentTxnStartOffset) {}
