package io.krabka.kernel.group;

import java.util.List;

/** Appends the coordinator's records to the {@code __consumer_offsets} partition of a group. */
interface CoordinatorWriter {

    /**
     * Appends {@code records} as one batch to the partition of {@code groupId} and advances its high watermark; the
     * records are durable in the log when this returns.
     *
     * @throws org.apache.kafka.common.errors.ApiException with the error a coordinator answers: NOT_COORDINATOR if
     *                                                     the log is gone, or the error of a batch the log refuses
     */
    void append(String groupId, List<CoordinatorRecord> records);
}
