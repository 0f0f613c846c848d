package io.krabka.kernel.replica;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.apache.kafka.common.errors.InconsistentTopicIdException;
import org.apache.kafka.common.protocol.Errors;

import io.krabka.kernel.log.BufferRecords;
import io.krabka.kernel.log.FetchDataInfo;
import io.krabka.kernel.log.FetchRecords;
import io.krabka.kernel.log.FetchIsolation;

/**
 * Reads the partitions of one fetch in order, as Kafka's {@code readFromLog}: the response's byte budget shrinks
 * with each partition read, and the first partition with records may exceed it and its own limit by one batch
 * (minOneMessage), so a batch larger than the limits still makes progress; a batch the limits cut short is left
 * for a later fetch.
 */
final class LogReader {

    private final ReplicaManager replicaManager;
    private final FetchParams params;

    LogReader(ReplicaManager replicaManager, FetchParams params) {
        this.replicaManager = replicaManager;
        this.params = params;
    }

    List<LogReadResult> read(List<FetchPartition> partitions) {
        List<LogReadResult> results = new ArrayList<>(partitions.size());
        int limitBytes = params.maxBytes();
        boolean minOneMessage = true;
        for (FetchPartition partition : partitions) {
            LogReadResult result = read(partition, limitBytes, minOneMessage);
            int size = result.records().sizeInBytes();
            if (size > 0) {
                minOneMessage = false;
            }
            limitBytes = Math.max(0, limitBytes - size);
            results.add(result);
        }
        return results;
    }

    private LogReadResult read(FetchPartition fetch, int limitBytes, boolean minOneMessage) {
        try {
            Partition partition = replicaManager.partitionOrException(fetch.topicIdPartition().topicPartition());
            if (!ReplicaManager.consistentTopicId(fetch.topicIdPartition().topicId(),
                    partition.topicIdPartition().topicId())) {
                throw new InconsistentTopicIdException("Topic id of " + fetch.topicIdPartition()
                        + " does not match the log's " + partition.topicIdPartition().topicId());
            }
            partition.checkCurrentLeaderEpoch(fetch.currentLeaderEpoch());
            int maxBytes = Math.min(fetch.maxBytes(), limitBytes);
            Partition.PartitionRead read = partition.read(fetch.fetchOffset(), maxBytes, params.isolation(),
                    minOneMessage);
            FetchDataInfo data = read.data();
            // A batch cut short by the limits is not sent: the client makes progress on the next fetch, when it is
            // the first partition read (Kafka since Fetch v3).
            FetchRecords records = data.firstEntryIncomplete() ? BufferRecords.EMPTY : data.records();
            return new LogReadResult(fetch, Errors.NONE, records, read.highWatermark(),
                    read.lastStableOffset(), read.logStartOffset(),
                    params.isolation() == FetchIsolation.TXN_COMMITTED
                            ? Optional.of(data.abortedTransactions().orElse(List.of()))
                            : Optional.empty(),
                    Optional.of(data.fetchOffsetMetadata()));
        } catch (IOException | RuntimeException e) {
            return LogReadResult.failed(fetch, ReplicaErrors.forException(e));
        }
    }
}
