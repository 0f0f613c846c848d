package io.krabka.kernel.replica;

import io.krabka.kernel.errors.KernelErrors;
import io.krabka.kernel.log.AbortedTxn;
import io.krabka.kernel.log.BufferRecords;
import io.krabka.kernel.log.FetchDataInfo;
import io.krabka.kernel.log.FetchIsolation;
import io.krabka.kernel.log.FetchRecords;
import io.krabka.kernel.log.LogOffsetMetadata;
import io.krabka.kernel.log.LogOffsetSnapshot;
import io.krabka.kernel.log.OffsetOutOfRangeException;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.tiered.AsyncRemoteLogReader;
import io.krabka.kernel.tiered.RemoteStorageFetchInfo;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.errors.InconsistentTopicIdException;
import org.apache.kafka.common.protocol.Errors;

/**
 * Reads the partitions of one fetch in order, as Kafka's {@code readFromLog}: the response's byte budget shrinks
 * with each partition read, and the first partition with records may exceed it and its own limit by one batch
 * (minOneMessage), so a batch larger than the limits still makes progress; a batch the limits cut short is left
 * for a later fetch. An offset below the local log of a tiered partition is not read here: each such partition is
 * answered by a remote read ({@link Reads#remoteReads()}), as Kafka's since 4.2 (KAFKA-14915): a remote read counts
 * against the response's budget with the most it may return, as its size is not known yet (KAFKA-19462), and the
 * partitions after it are read without minOneMessage (KAFKA-19795).
 */
final class LogReader {

    /**
     * What a read found.
     *
     * @param results     one per partition, in order; a partition to read remotely has no records yet
     * @param remoteReads the partitions to read from the remote tier, in order
     */
    record Reads(List<LogReadResult> results, List<RemoteRead> remoteReads) {}

    /**
     * A partition to read from the remote tier.
     *
     * @param index the partition's place in the results
     * @param fetch what to read
     * @param log   the partition's log
     */
    record RemoteRead(int index, RemoteStorageFetchInfo fetch, UnifiedLog log) {}

    private final ReplicaManager replicaManager;
    private final FetchParams params;
    private final Optional<AsyncRemoteLogReader> remoteReader;

    LogReader(ReplicaManager replicaManager, FetchParams params, Optional<AsyncRemoteLogReader> remoteReader) {
        this.replicaManager = replicaManager;
        this.params = params;
        this.remoteReader = remoteReader;
    }

    /** Reads the partitions; the results of partitions to read remotely have no records. */
    List<LogReadResult> read(List<FetchPartition> partitions) {
        return readAll(partitions).results();
    }

    Reads readAll(List<FetchPartition> partitions) {
        List<LogReadResult> results = new ArrayList<>(partitions.size());
        List<RemoteRead> remoteReads = new ArrayList<>();
        int limitBytes = params.maxBytes();
        boolean minOneMessage = true;
        for (FetchPartition partition : partitions) {
            PartitionResult read = read(partition, limitBytes, minOneMessage);
            int size = read.result().records().sizeInBytes();
            if (read.remoteRead().isPresent()) {
                RemoteRead remote = read.remoteRead().get();
                remoteReads.add(new RemoteRead(results.size(), remote.fetch(), remote.log()));
                size = remote.fetch().maxBytes();
            }
            if (size > 0 || read.remoteRead().isPresent()) {
                minOneMessage = false;
            }
            limitBytes = Math.max(0, limitBytes - size);
            results.add(read.result());
        }
        return new Reads(results, remoteReads);
    }

    // The remote read's index is set by the caller, who knows the partition's place.
    private record PartitionResult(LogReadResult result, Optional<RemoteRead> remoteRead) {}

    private PartitionResult read(FetchPartition fetch, int limitBytes, boolean minOneMessage) {
        try {
            Partition partition =
                    replicaManager.partitionOrException(fetch.topicIdPartition().topicPartition());
            if (!ReplicaManager.consistentTopicId(
                    fetch.topicIdPartition().topicId(),
                    partition.topicIdPartition().topicId())) {
                throw new InconsistentTopicIdException(
                        "Topic id of " + fetch.topicIdPartition() + " does not match the log's "
                                + partition.topicIdPartition().topicId());
            }
            partition.checkCurrentLeaderEpoch(fetch.currentLeaderEpoch());
            int maxBytes = Math.min(fetch.maxBytes(), limitBytes);
            if (remoteReader.isPresent() && RemoteReads.inRemoteTier(partition.log(), fetch.fetchOffset())) {
                return remote(fetch, partition, maxBytes, minOneMessage);
            }
            Partition.PartitionRead read;
            try {
                read = partition.read(fetch.fetchOffset(), maxBytes, params.isolation(), minOneMessage);
            } catch (OffsetOutOfRangeException e) {
                // Local retention moved the local log start past the offset since the check: it is tiered now.
                if (remoteReader.isPresent() && RemoteReads.inRemoteTier(partition.log(), fetch.fetchOffset())) {
                    return remote(fetch, partition, maxBytes, minOneMessage);
                }
                throw e;
            }
            FetchDataInfo data = read.data();
            // A batch cut short by the limits is not sent: the client makes progress on the next fetch, when it is
            // the first partition read (Kafka since Fetch v3).
            FetchRecords records = data.firstEntryIncomplete() ? BufferRecords.EMPTY : data.records();
            return new PartitionResult(
                    new LogReadResult(
                            fetch,
                            Errors.NONE,
                            records,
                            read.highWatermark(),
                            read.lastStableOffset(),
                            read.logStartOffset(),
                            abortedTransactions(data),
                            Optional.of(data.fetchOffsetMetadata())),
                    Optional.empty());
        } catch (IOException | RuntimeException e) {
            replicaManager.readFailed(fetch.topicIdPartition().topicPartition(), e);
            return new PartitionResult(LogReadResult.failed(fetch, KernelErrors.forException(e)), Optional.empty());
        }
    }

    /**
     * A partition whose offset is in the remote tier: no records now, with the log's offsets; a remote read to do
     * unless the remote fetch quota is used up (Kafka then answers with no records and an unknown position, so a
     * waiting fetch reads the partition again rather than counting on it), or the response has no room left for it
     * (the read could return nothing).
     */
    private PartitionResult remote(FetchPartition fetch, Partition partition, int maxBytes, boolean minOneMessage)
            throws IOException {
        UnifiedLog log = partition.log();
        LogOffsetSnapshot offsets = log.fetchOffsetSnapshot();
        boolean noRoom = maxBytes == 0 && !minOneMessage;
        boolean throttled = !noRoom && remoteReader.orElseThrow().isFetchQuotaExceeded();
        LogReadResult result = new LogReadResult(
                fetch,
                Errors.NONE,
                BufferRecords.EMPTY,
                offsets.highWatermark().messageOffset(),
                offsets.lastStableOffset().messageOffset(),
                offsets.logStartOffset(),
                params.isolation() == FetchIsolation.TXN_COMMITTED ? Optional.of(List.of()) : Optional.empty(),
                throttled ? Optional.empty() : Optional.of(new LogOffsetMetadata(fetch.fetchOffset())));
        Optional<RemoteRead> remoteRead = throttled || noRoom
                ? Optional.empty()
                : Optional.of(new RemoteRead(
                        -1,
                        new RemoteStorageFetchInfo(
                                partition.topicIdPartition(),
                                fetch.fetchOffset(),
                                maxBytes,
                                minOneMessage,
                                params.isolation()),
                        log));
        return new PartitionResult(result, remoteRead);
    }

    private Optional<List<AbortedTxn>> abortedTransactions(FetchDataInfo data) {
        return params.isolation() == FetchIsolation.TXN_COMMITTED
                ? Optional.of(data.abortedTransactions().orElse(List.of()))
                : Optional.empty();
    }
}
