package io.krabka.kernel.group;

import io.krabka.kernel.coordinator.CoordinatorLogWriter.TransactionalProducer;
import io.krabka.kernel.log.TransactionResult;
import java.util.List;

/** Appends the coordinator's records to the {@code __consumer_offsets} partition of a group. */
interface CoordinatorWriter {

    /**
     * Appends {@code records} as one batch to the partition of {@code groupId} and advances its high watermark; the
     * records are durable in the log when this returns.
     *
     * @param producer the producer whose transaction the records belong to (transactional offset commits), or null
     * @return the offset of the first record
     * @throws org.apache.kafka.common.errors.ApiException with the error a coordinator answers: NOT_COORDINATOR if
     *                                                     the log is gone, or the error of a batch the log refuses
     */
    long append(String groupId, List<CoordinatorRecord> records, TransactionalProducer producer);

    /** Appends records that belong to no transaction; see {@link #append(String, List, TransactionalProducer)}. */
    default long append(String groupId, List<CoordinatorRecord> records) {
        return append(groupId, records, null);
    }

    /**
     * Appends the end-transaction marker of {@code producerId}'s transaction to a partition of
     * {@code __consumer_offsets}.
     *
     * @throws org.apache.kafka.common.errors.ApiException with the log's error if the write fails
     */
    void appendMarker(
            int partition,
            long producerId,
            short producerEpoch,
            TransactionResult result,
            int coordinatorEpoch,
            short transactionVersion);
}
