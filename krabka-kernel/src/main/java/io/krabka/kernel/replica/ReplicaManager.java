package io.krabka.kernel.replica;

import io.krabka.kernel.errors.KernelErrors;
import io.krabka.kernel.log.ActiveProducer;
import io.krabka.kernel.log.AppendOrigin;
import io.krabka.kernel.log.DiskFaults;
import io.krabka.kernel.log.EpochEndOffset;
import io.krabka.kernel.log.FetchDataInfo;
import io.krabka.kernel.log.FetchIsolation;
import io.krabka.kernel.log.LogAppendInfo;
import io.krabka.kernel.log.LogDirWriteStates;
import io.krabka.kernel.log.LogManager;
import io.krabka.kernel.log.LogOffsetMetadata;
import io.krabka.kernel.log.LogOffsetSnapshot;
import io.krabka.kernel.log.LogStartOffsetIncrementReason;
import io.krabka.kernel.log.OffsetOutOfRangeException;
import io.krabka.kernel.log.ProducerAppendInfo;
import io.krabka.kernel.log.TimestampAndOffset;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.log.VerificationGuard;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.MetadataPublisher;
import io.krabka.kernel.record.RecordValidationException;
import io.krabka.kernel.scheduler.Scheduler;
import io.krabka.kernel.tiered.AsyncRemoteLogReader;
import io.krabka.spi.common.TopicPartition;
import io.krabka.spi.common.Uuid;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.apache.kafka.common.errors.PolicyViolationException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.protocol.Errors;

/**
 * The partitions this node leads and their data path (Kafka's {@code ReplicaManager}): follows the cluster
 * metadata to create, configure and delete their logs ({@link PartitionStates}); appends produced batches as
 * leader and moves the high watermark to the log end (the ISR is this node); reads for fetches, holding a fetch in
 * the purgatory until {@code minBytes} are readable or its maximum wait passes; answers ListOffsets lookups.
 */
public final class ReplicaManager implements MetadataPublisher, AutoCloseable {
    /** The offset a DeleteRecords request names the high watermark by, as Kafka's {@code DeleteRecordsRequest}. */
    public static final long HIGH_WATERMARK = -1L;

    private final ConcurrentHashMap<TopicPartition, Partition> partitions = new ConcurrentHashMap<>();
    private final LogManager logManager;
    private final PartitionStates states;
    private final FetchPurgatory purgatory;
    private final Scheduler scheduler;
    private final Optional<AsyncRemoteLogReader> remoteReader;
    private final Set<DelayedRemoteFetch> remoteFetches = ConcurrentHashMap.newKeySet();
    private final LogDirWriteStates writeStates = new LogDirWriteStates("partitions");
    private volatile boolean closed;

    /**
     * A replica manager over the broker's logs, without a remote tier.
     *
     * @param scheduler runs the expiry of waiting fetches
     */
    public ReplicaManager(ReplicaManagerConfig config, LogManager logManager, Scheduler scheduler) {
        this(config, logManager, scheduler, Optional.empty());
    }

    /**
     * A replica manager over the broker's logs.
     *
     * @param scheduler    runs the expiry of waiting fetches
     * @param remoteReader reads the offsets of tiered partitions below their local logs, when the broker has a
     *                     remote tier ({@code remote.log.storage.system.enable}); the caller closes it
     */
    public ReplicaManager(
            ReplicaManagerConfig config,
            LogManager logManager,
            Scheduler scheduler,
            Optional<AsyncRemoteLogReader> remoteReader) {
        this.logManager = Objects.requireNonNull(logManager, "logManager");
        this.purgatory = new FetchPurgatory(scheduler);
        this.states = new PartitionStates(config, logManager, partitions, purgatory::checkAndComplete);
        this.scheduler = scheduler;
        this.remoteReader = Objects.requireNonNull(remoteReader, "remoteReader");
    }

    @Override
    public String name() {
        return "ReplicaManager";
    }

    @Override
    public void onMetadataUpdate(MetadataImage previous, MetadataImage current) {
        states.apply(previous, current);
    }

    /** The partition, if this node leads it. */
    public Optional<Partition> partition(TopicPartition topicPartition) {
        return Optional.ofNullable(partitions.get(topicPartition));
    }

    /** The partition this node leads, or Kafka's error for one it does not have. */
    Partition partitionOrException(TopicPartition topicPartition) {
        Partition partition = partitions.get(topicPartition);
        if (partition != null) {
            return partition;
        }
        if (logManager.isOffline(topicPartition)) {
            throw new KafkaStorageException("Partition " + topicPartition + " is in an offline log directory");
        }
        if (states.isOffline(topicPartition)) {
            throw new KafkaStorageException("The log of " + topicPartition + " could not be opened");
        }
        throw new UnknownTopicOrPartitionException("This server does not host this topic-partition.");
    }

    /**
     * Appends each partition's batch as leader (Kafka's {@code appendRecords}), the high watermark following:
     * acks other than -1, 0 and 1 fail every partition with INVALID_REQUIRED_ACKS; a client may not write to an
     * internal topic (INVALID_TOPIC_EXCEPTION); otherwise the log's validation and producer state decide, each
     * failure under Kafka's error with nothing appended. A retried batch the log holds gets its first offsets.
     *
     * @param requiredAcks          the request's acks
     * @param internalTopicsAllowed whether internal topics may be written (a coordinator's appends)
     * @param entries               one batch per partition, in the order to answer
     */
    public Map<TopicPartition, ProducePartitionResult> appendRecords(
            short requiredAcks,
            boolean internalTopicsAllowed,
            AppendOrigin origin,
            Map<TopicPartition, ByteBuffer> entries) {
        return appendRecords(
                requiredAcks, internalTopicsAllowed, origin, entries, ProducerAppendInfo.TV_UNKNOWN, Map.of());
    }

    /**
     * As {@link #appendRecords(short, boolean, AppendOrigin, Map)}, with the transaction version of the markers a
     * coordinator writes and the verifications of the transactional batches that open a transaction.
     *
     * @param transactionVersion the markers' transaction version, or {@link ProducerAppendInfo#TV_UNKNOWN}
     * @param verificationGuards each partition's verification ({@link UnifiedLog#maybeStartTransactionVerification});
     *                           a partition without one appends with {@link VerificationGuard#SENTINEL}
     */
    public Map<TopicPartition, ProducePartitionResult> appendRecords(
            short requiredAcks,
            boolean internalTopicsAllowed,
            AppendOrigin origin,
            Map<TopicPartition, ByteBuffer> entries,
            short transactionVersion,
            Map<TopicPartition, VerificationGuard> verificationGuards) {
        Map<TopicPartition, ProducePartitionResult> results = new LinkedHashMap<>();
        boolean validAcks = requiredAcks == -1 || requiredAcks == 0 || requiredAcks == 1;
        entries.forEach((topicPartition, records) -> results.put(
                topicPartition,
                validAcks
                        ? appendToLocalLog(
                                topicPartition,
                                records,
                                internalTopicsAllowed,
                                origin,
                                transactionVersion,
                                verificationGuards.getOrDefault(topicPartition, VerificationGuard.SENTINEL))
                        : ProducePartitionResult.failed(Errors.INVALID_REQUIRED_ACKS, null)));
        return results;
    }

    /**
     * The producers a partition this node leads knows (DescribeProducers).
     *
     * @throws org.apache.kafka.common.errors.ApiException if the partition is not here
     */
    public List<ActiveProducer> activeProducers(TopicPartition topicPartition) {
        return partitionOrException(topicPartition).log().activeProducers();
    }

    /**
     * Begins the verification that a partition this node leads is in a producer's transaction, before the
     * transaction's first batch there (KIP-890, Kafka's {@code maybeStartTransactionVerificationForPartition}): none is
     * needed ({@link VerificationGuard#SENTINEL}) when the producer has a transaction open there, or when
     * {@code transaction.partition.verification.enable} is off and the producer does not add partitions itself at
     * transaction version 2.
     *
     * @param supportsEpochBump whether the producer speaks transaction version 2
     * @throws org.apache.kafka.common.errors.ApiException the partition's error: it is not here, or the epoch is
     *                                                     older than the partition's
     */
    public VerificationGuard maybeStartTransactionVerification(
            TopicPartition topicPartition, long producerId, short producerEpoch, boolean supportsEpochBump) {
        Partition partition = partitionOrException(topicPartition);
        if (!supportsEpochBump && !logManager.producerStateManagerConfig().transactionVerificationEnabled()) {
            return VerificationGuard.SENTINEL;
        }
        try {
            return partition.log().maybeStartTransactionVerification(producerId, producerEpoch, supportsEpochBump);
        } catch (RuntimeException e) {
            throw KernelErrors.forException(e).exception(e.getMessage());
        }
    }

    private ProducePartitionResult appendToLocalLog(
            TopicPartition topicPartition,
            ByteBuffer records,
            boolean internalTopicsAllowed,
            AppendOrigin origin,
            short transactionVersion,
            VerificationGuard verificationGuard) {
        if (Topic.isInternal(topicPartition.topic()) && !internalTopicsAllowed) {
            return ProducePartitionResult.failed(
                    Errors.INVALID_TOPIC_EXCEPTION, "Cannot append to internal topic " + topicPartition.topic());
        }
        Partition partition = null;
        try {
            partition = partitionOrException(topicPartition);
            LogAppendInfo info =
                    partition.appendRecordsToLeader(records, origin, transactionVersion, verificationGuard);
            writeStates.succeeded(partition.log().parentDir());
            purgatory.checkAndComplete(topicPartition);
            return new ProducePartitionResult(
                    Errors.NONE, null, info.firstOffset(), info.logAppendTime(), info.logStartOffset(), List.of());
        } catch (RecordValidationException e) {
            return new ProducePartitionResult(
                    KernelErrors.forException(e),
                    e.getMessage(),
                    -1,
                    -1,
                    logStartOffset(topicPartition),
                    e.recordErrors());
        } catch (IOException | RuntimeException e) {
            Errors error = KernelErrors.forException(e);
            if (error == Errors.KAFKA_STORAGE_ERROR && partition != null) {
                Path logDir = partition.log().parentDir();
                if (DiskFaults.takesLogDirOffline(e)) {
                    logManager
                            .logDirFailureChannel()
                            .maybeAddOfflineLogDir(
                                    logDir,
                                    "Error while appending records " + "to " + topicPartition + " in dir " + logDir,
                                    e);
                } else {
                    writeStates.failed(logDir, e);
                }
            }
            return new ProducePartitionResult(error, e.getMessage(), -1, -1, logStartOffset(topicPartition), List.of());
        }
    }

    /** A read of {@code topicPartition} failed with {@code e}: its log directory goes offline if the disk is at fault. */
    void readFailed(TopicPartition topicPartition, Throwable e) {
        Partition partition = partitions.get(topicPartition);
        if (partition != null && DiskFaults.takesLogDirOffline(e)) {
            Path logDir = partition.log().parentDir();
            logManager
                    .logDirFailureChannel()
                    .maybeAddOfflineLogDir(
                            logDir, "Error while reading from " + topicPartition + " in dir " + logDir, e);
        }
    }

    /**
     * Takes the partitions of {@code logDir}, which an I/O error took offline, out of service, then the directory
     * itself ({@link LogManager#handleLogDirFailure}), as Kafka's {@code handleLogDirFailure}: from then on each
     * answers KAFKA_STORAGE_ERROR ("Partition ... is in an offline log directory"), and the fetches waiting for
     * them are answered now.
     */
    public void handleLogDirFailure(Path logDir) {
        Path dir = logDir.toAbsolutePath().normalize();
        List<TopicPartition> offline = partitions.entrySet().stream()
                .filter(entry -> entry.getValue().log().parentDir().equals(dir))
                .map(Map.Entry::getKey)
                .toList();
        logManager.handleLogDirFailure(dir);
        offline.forEach(partitions::remove);
        offline.forEach(purgatory::checkAndComplete);
    }

    private long logStartOffset(TopicPartition topicPartition) {
        Partition partition = partitions.get(topicPartition);
        return partition == null ? -1 : partition.log().logStartOffset();
    }

    /**
     * Reads the partitions for a fetch (Kafka's {@code fetchMessages}); answers at once when the fetch does not
     * wait, reads at least {@code minBytes}, or a partition fails; otherwise when an append or the maximum wait
     * completes it. The partitions whose offsets are in the remote tier are read remotely, and the fetch answered when
     * those reads complete or {@code remote.fetch.max.wait.ms} passes (Kafka's {@code DelayedRemoteFetch}). The
     * results are in the order of {@code fetchPartitions}.
     */
    public CompletableFuture<List<LogReadResult>> fetchMessages(
            FetchParams params, List<FetchPartition> fetchPartitions) {
        LogReader reader = new LogReader(this, params, remoteReader);
        LogReader.Reads reads = reader.readAll(fetchPartitions);
        List<LogReadResult> results = reads.results();
        if (!reads.remoteReads().isEmpty() && !closed) {
            return remoteFetch(results, reads.remoteReads());
        }
        if (params.maxWaitMs() <= 0 || fetchPartitions.isEmpty() || DelayedFetch.satisfied(params, results) || closed) {
            return CompletableFuture.completedFuture(results);
        }
        DelayedFetch fetch = new DelayedFetch(params, results, reader::read, this::endOffset);
        purgatory.tryCompleteElseWatch(fetch);
        return fetch.response();
    }

    private CompletableFuture<List<LogReadResult>> remoteFetch(
            List<LogReadResult> results, List<LogReader.RemoteRead> remoteReads) {
        AsyncRemoteLogReader reader = remoteReader.orElseThrow();
        List<LogReadResult> answered = new ArrayList<>(results);
        List<LogReader.RemoteRead> started = new ArrayList<>();
        List<CompletableFuture<FetchDataInfo>> data = new ArrayList<>();
        for (LogReader.RemoteRead remoteRead : remoteReads) {
            try {
                data.add(reader.asyncRead(remoteRead.fetch(), remoteRead.log()));
                started.add(remoteRead);
            } catch (RejectedExecutionException e) {
                // Kafka answers the partition with the error of a read it could not schedule, the others as read.
                answered.set(
                        remoteRead.index(),
                        LogReadResult.failed(results.get(remoteRead.index()).partition(), Errors.UNKNOWN_SERVER_ERROR));
            }
        }
        if (started.isEmpty()) {
            return CompletableFuture.completedFuture(answered);
        }
        // Unwatched before the response completes: the answer never goes out with the fetch still counted.
        DelayedRemoteFetch fetch = new DelayedRemoteFetch(answered, started, data, remoteFetches::remove);
        remoteFetches.add(fetch);
        fetch.start(scheduler, reader.config().fetchMaxWaitMs());
        if (closed) {
            fetch.expire();
        }
        return fetch.response();
    }

    /**
     * How far a waiting fetch may read in a partition now: the log end, high watermark or last stable offset, with
     * its position.
     *
     * @throws org.apache.kafka.common.errors.ApiException if the partition is gone or the fetch's epoch is wrong
     */
    private LogOffsetMetadata endOffset(FetchPartition fetch, FetchIsolation isolation) throws IOException {
        Partition partition = partitionOrException(fetch.topicIdPartition().topicPartition());
        partition.checkCurrentLeaderEpoch(fetch.currentLeaderEpoch());
        LogOffsetSnapshot offsets = partition.log().fetchOffsetSnapshot();
        return switch (isolation) {
            case LOG_END -> offsets.logEndOffset();
            case HIGH_WATERMARK -> offsets.highWatermark();
            case TXN_COMMITTED -> offsets.lastStableOffset();
        };
    }

    /** The number of fetches waiting for data or for a remote read. */
    public int waitingFetches() {
        return purgatory.waiting() + remoteFetches.size();
    }

    /**
     * Kafka's DeleteRecords on one partition this node leads: its log start offset moved up to {@code offset}, or to
     * the high watermark for -1, never down; the segments below it go at the next retention check. With one replica
     * the low watermark is the log start offset, reached at once.
     *
     * @return the partition's low watermark
     * @throws org.apache.kafka.common.errors.InvalidTopicException   for an internal topic
     * @throws org.apache.kafka.common.errors.PolicyViolationException if the topic's {@code cleanup.policy} has no
     *                                                                 {@code delete}
     * @throws io.krabka.kernel.log.OffsetOutOfRangeException          for an offset below -1 or above the high
     *                                                                 watermark
     */
    public long deleteRecords(TopicPartition topicPartition, long offset) throws IOException {
        if (Topic.isInternal(topicPartition.topic())) {
            throw new InvalidTopicException("Cannot delete records of internal topic " + topicPartition.topic());
        }
        UnifiedLog log = partitionOrException(topicPartition).log();
        if (!log.config().isDelete()) {
            throw new PolicyViolationException(
                    "Records of partition " + topicPartition + " can not be deleted due to the configured policy");
        }
        long converted = offset == HIGH_WATERMARK ? log.highWatermark() : offset;
        if (converted < 0) {
            throw new OffsetOutOfRangeException(
                    "The offset " + offset + " for partition " + topicPartition + " is not valid");
        }
        log.maybeIncrementLogStartOffset(converted, LogStartOffsetIncrementReason.CLIENT_RECORD_DELETION);
        return log.logStartOffset();
    }

    /**
     * Kafka's OffsetsForLeaderEpoch lookup for one partition (a consumer validating its position after a leader
     * change, KIP-320): the end offset of {@code leaderEpoch} and the epoch it belongs to.
     *
     * @param currentLeaderEpoch the epoch the client believes current, checked as a fetch's is; empty for none
     * @return empty when the log knows no epoch at or below {@code leaderEpoch}
     * @throws org.apache.kafka.common.errors.ApiException with Kafka's error for an unknown partition or a wrong
     *                                                     current leader epoch
     */
    public Optional<EpochEndOffset> lastOffsetForLeaderEpoch(
            TopicPartition topicPartition, Optional<Integer> currentLeaderEpoch, int leaderEpoch) {
        return partitionOrException(topicPartition).lastOffsetForLeaderEpoch(currentLeaderEpoch, leaderEpoch);
    }

    /**
     * Kafka's ListOffsets lookup for one partition.
     *
     * @return empty when no offset qualifies
     * @throws org.apache.kafka.common.errors.ApiException with Kafka's error for an unknown partition or a wrong
     *                                                     leader epoch
     */
    public Optional<TimestampAndOffset> fetchOffsetForTimestamp(
            TopicPartition topicPartition, long timestamp, boolean readCommitted, Optional<Integer> currentLeaderEpoch)
            throws IOException {
        return partitionOrException(topicPartition)
                .fetchOffsetForTimestamp(timestamp, readCommitted, currentLeaderEpoch, remoteReader);
    }

    /**
     * Answers every waiting fetch now with what is readable, and every later fetch at once: at shutdown, so the
     * socket server's wait for the requests in flight does not wait out their maximum waits. Call before closing
     * the socket server.
     */
    @Override
    public void close() {
        closed = true;
        purgatory.expireAll();
        List.copyOf(remoteFetches).forEach(DelayedRemoteFetch::expire);
    }

    /** A topic id that is zero is no check (a request by name). */
    static boolean consistentTopicId(Uuid requested, Uuid actual) {
        return requested.equals(Uuid.ZERO_UUID) || requested.equals(actual);
    }
}
