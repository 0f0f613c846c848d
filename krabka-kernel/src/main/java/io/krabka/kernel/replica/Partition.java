package io.krabka.kernel.replica;

import io.krabka.kernel.log.AppendOrigin;
import io.krabka.kernel.log.EpochEndOffset;
import io.krabka.kernel.log.FetchDataInfo;
import io.krabka.kernel.log.FetchIsolation;
import io.krabka.kernel.log.LogAppendInfo;
import io.krabka.kernel.log.LogOffsetSnapshot;
import io.krabka.kernel.log.OffsetLookup;
import io.krabka.kernel.log.TimestampAndOffset;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.log.VerificationGuard;
import io.krabka.kernel.tiered.AsyncRemoteLogReader;
import io.krabka.spi.common.TopicIdPartition;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.errors.FencedLeaderEpochException;
import org.apache.kafka.common.errors.UnknownLeaderEpochException;

/**
 * A partition this node leads (Kafka's {@code Partition}): its log and leader epoch. On a single node the ISR is
 * this node alone, so the high watermark follows the log end after every append.
 */
public final class Partition {

    private final TopicIdPartition topicIdPartition;
    private final UnifiedLog log;
    private volatile int leaderEpoch;

    Partition(TopicIdPartition topicIdPartition, UnifiedLog log, int leaderEpoch) {
        this.topicIdPartition = Objects.requireNonNull(topicIdPartition, "topicIdPartition");
        this.log = Objects.requireNonNull(log, "log");
        this.leaderEpoch = leaderEpoch;
    }

    /** The topic id and partition. */
    public TopicIdPartition topicIdPartition() {
        return topicIdPartition;
    }

    /** The partition's log. */
    public UnifiedLog log() {
        return log;
    }

    /** The current leader epoch. */
    public int leaderEpoch() {
        return leaderEpoch;
    }

    /**
     * Takes a new leader epoch (Kafka's {@code makeLeader}): the leader starts it at the log end, and the high
     * watermark moves to the log end, the ISR being this node: a high watermark checkpoint older than the log (after
     * a crash) must not hide acknowledged records.
     */
    void makeLeader(int newLeaderEpoch) throws IOException {
        synchronized (this) {
            if (log.latestEpoch().orElse(-1) < newLeaderEpoch) {
                log.assignEpochStartOffset(newLeaderEpoch, log.logEndOffset());
            }
            leaderEpoch = newLeaderEpoch;
            log.maybeIncrementHighWatermark(log.logEndOffsetMetadata());
        }
    }

    /**
     * Appends a producer's batch as leader and moves the high watermark to the log end (the ISR is this node).
     * acks=-1 never fails for want of replicas: Kafka's {@code appendRecordsToLeader} asks for
     * {@code min(min.insync.replicas, replicas)} in sync ({@code effectiveMinIsr}), and a partition of one node has
     * one replica, in sync.
     */
    LogAppendInfo appendRecordsToLeader(
            ByteBuffer records, AppendOrigin origin, short transactionVersion, VerificationGuard verificationGuard)
            throws IOException {
        synchronized (this) {
            LogAppendInfo info =
                    log.appendAsLeader(records, leaderEpoch, origin, transactionVersion, verificationGuard);
            log.maybeIncrementHighWatermark(log.logEndOffsetMetadata());
            return info;
        }
    }

    /**
     * Kafka's OffsetsForLeaderEpoch answer ({@code Partition.lastOffsetForLeaderEpoch}): the request's current
     * leader epoch checked, then the end offset of {@code leaderEpoch}, the start of the first later epoch (or the
     * log end for the latest), with the largest epoch not above it.
     *
     * @return empty when the log knows no epoch at or below {@code leaderEpoch}
     * @throws FencedLeaderEpochException  if the request's current epoch is older than the partition's
     * @throws UnknownLeaderEpochException if it is newer
     */
    Optional<EpochEndOffset> lastOffsetForLeaderEpoch(Optional<Integer> currentLeaderEpoch, int leaderEpoch) {
        synchronized (this) {
            checkCurrentLeaderEpoch(currentLeaderEpoch);
            return log.endOffsetForEpoch(leaderEpoch);
        }
    }

    /**
     * Checks a request's current leader epoch (-1: no check) as Kafka's {@code Partition.validateCurrentLeaderEpoch}.
     *
     * @throws FencedLeaderEpochException  if the request's epoch is older
     * @throws UnknownLeaderEpochException if it is newer
     */
    void checkCurrentLeaderEpoch(Optional<Integer> requestEpoch) {
        if (requestEpoch.isEmpty() || requestEpoch.get() == -1) {
            return;
        }
        int current = leaderEpoch;
        if (requestEpoch.get() < current) {
            throw new FencedLeaderEpochException("The leader epoch in the request " + requestEpoch.get()
                    + " is older than the current leader epoch " + current + " of " + topicIdPartition);
        }
        if (requestEpoch.get() > current) {
            throw new UnknownLeaderEpochException("The leader epoch in the request " + requestEpoch.get()
                    + " is newer than the current leader epoch " + current + " of " + topicIdPartition);
        }
    }

    /** Reads as a consumer's fetch does; the offsets are taken before the read, as Kafka's {@code fetchRecords}. */
    PartitionRead read(long fetchOffset, int maxBytes, FetchIsolation isolation, boolean minOneMessage)
            throws IOException {
        LogOffsetSnapshot offsets = log.fetchOffsetSnapshot();
        FetchDataInfo data = log.read(fetchOffset, maxBytes, isolation, minOneMessage);
        return new PartitionRead(
                data,
                offsets.highWatermark().messageOffset(),
                offsets.lastStableOffset().messageOffset(),
                offsets.logStartOffset());
    }

    /**
     * What a read found, with the offsets a fetch response reports.
     *
     * @param data             the records read
     * @param highWatermark    the high watermark before the read
     * @param lastStableOffset the last stable offset before the read
     * @param logStartOffset   the log start offset before the read
     */
    record PartitionRead(FetchDataInfo data, long highWatermark, long lastStableOffset, long logStartOffset) {}

    /**
     * Kafka's ListOffsets answer ({@code Partition.fetchOffsetForTimestamp}): the latest offset is the last offset
     * a client may read (the high watermark, or the last stable offset for read_committed) with the current leader
     * epoch; the earliest offsets come from the log; a timestamp lookup only finds offsets below that last readable
     * offset, and in a tiered log searches the remote tier before the local log (Kafka's
     * {@code UnifiedLog.fetchOffsetByTimestamp}).
     *
     * @param readCommitted whether the client reads committed records only
     * @param remoteReader  the remote tier's reader, if the broker has one
     * @return empty when no record qualifies
     * @throws KafkaException if the remote tier failed (Kafka's UNKNOWN_SERVER_ERROR)
     * @throws org.apache.kafka.common.errors.TimeoutException if the remote tier took longer than
     *                                                         {@code remote.list.offsets.request.timeout.ms}
     *                                                         (REQUEST_TIMED_OUT)
     */
    Optional<TimestampAndOffset> fetchOffsetForTimestamp(
            long timestamp,
            boolean readCommitted,
            Optional<Integer> currentLeaderEpoch,
            Optional<AsyncRemoteLogReader> remoteReader)
            throws IOException {
        checkCurrentLeaderEpoch(currentLeaderEpoch);
        long lastFetchableOffset = readCommitted ? log.lastStableOffset() : log.highWatermark();
        if (timestamp == OffsetLookup.LATEST_TIMESTAMP) {
            return Optional.of(new TimestampAndOffset(-1L, lastFetchableOffset, OptionalInt.of(leaderEpoch)));
        }
        Optional<TimestampAndOffset> found =
                TieredOffsetLookup.fetchOffsetByTimestamp(log, topicIdPartition, timestamp, remoteReader);
        if (timestamp == OffsetLookup.EARLIEST_TIMESTAMP || timestamp == OffsetLookup.EARLIEST_LOCAL_TIMESTAMP) {
            return found;
        }
        return found.filter(result -> result.offset() < lastFetchableOffset);
    }

    @Override
    public String toString() {
        return "Partition(" + topicIdPartition + ", leader epoch " + leaderEpoch + ")";
    }
}
