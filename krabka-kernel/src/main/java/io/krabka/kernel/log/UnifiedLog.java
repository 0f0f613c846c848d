package io.krabka.kernel.log;

import io.krabka.kernel.log.checkpoint.LeaderEpochCheckpointFile;
import io.krabka.kernel.log.checkpoint.PartitionMetadataFile;
import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.record.LogValidator;
import io.krabka.kernel.record.MemoryRecords;
import io.krabka.kernel.record.RecordBatch;
import io.krabka.kernel.record.RecordTooLargeException;
import io.krabka.kernel.record.TimestampType;
import io.krabka.kernel.scheduler.Scheduler;
import io.krabka.spi.common.TopicPartition;
import io.krabka.spi.common.Uuid;
import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.ScheduledFuture;
import org.apache.kafka.common.internals.Topic;

/**
 * A partition's log, Kafka's {@code UnifiedLog}: the {@link LocalLog} with what a broker keeps around it: produce
 * validation and offset assignment, the producer state (duplicates, sequences, transactions), leader epochs, the log
 * start offset, the high watermark and the last stable offset, flushing, rolling, retention and the topic id.
 *
 * <p>Tiered storage (KIP-405): when {@link #remoteLogEnabled()}, the remote log manager copies rolled segments to the
 * remote tier and moves {@link #highestOffsetInRemoteStorage()}; local retention ({@code local.retention.*}) then
 * deletes only copied segments and moves the {@link #localLogStartOffset()}, while the {@link #logStartOffset()}
 * stays below it, at the first offset the remote tier holds, until remote retention moves it
 * ({@link #updateLogStartOffsetFromRemoteTier}). Local reads below the local log start offset fail with
 * {@link OffsetOutOfRangeException}: those offsets are read from the remote tier.
 *
 * <p>Threads: one lock serializes every change (appends, rolls, truncation, retention, offset moves); reads, the
 * offsets and {@link #fetchOffsetByTimestamp} take no lock (but the first read after the high watermark or last
 * stable offset moved without a position may take it once to look the position up). A reader sees only whole
 * batches: offsets are published after the bytes they cover.
 */
public final class UnifiedLog implements Closeable {

    private static final System.Logger LOG = System.getLogger(UnifiedLog.class.getName());

    /** Serializes changes; package-private for {@link LogRetention}. */
    final Object lock = new Object();

    private final LocalLog localLog;
    private final ProducerStateManager producerStateManager;
    private final List<Long> segmentsRecoveredAtLoad;
    private final ScheduledFuture<?> producerExpireCheck;
    private final LogWatermarks watermarks;
    private final boolean remoteStorageSystemEnable;
    private final LogDirFailureChannel logDirFailureChannel;
    private volatile PartitionMetadataFile partitionMetadataFile;
    private volatile long logStartOffset;
    private volatile long highestOffsetInRemoteStorage = -1;
    private volatile LeaderEpochFileCache leaderEpochCache;
    private volatile Optional<Uuid> topicId;

    private UnifiedLog(
            long logStartOffset,
            LocalLog localLog,
            int producerIdExpirationCheckIntervalMs,
            LeaderEpochFileCache leaderEpochCache,
            ProducerStateManager producerStateManager,
            Optional<Uuid> topicId,
            List<Long> segmentsRecoveredAtLoad,
            boolean remoteStorageSystemEnable,
            LogDirFailureChannel logDirFailureChannel)
            throws IOException {
        this.localLog = localLog;
        this.logDirFailureChannel = logDirFailureChannel;
        this.remoteStorageSystemEnable = remoteStorageSystemEnable;
        this.leaderEpochCache = leaderEpochCache;
        this.producerStateManager = producerStateManager;
        this.topicId = Objects.requireNonNull(topicId, "topicId");
        this.segmentsRecoveredAtLoad = List.copyOf(segmentsRecoveredAtLoad);
        this.logStartOffset = logStartOffset;
        this.watermarks = new LogWatermarks(lock, localLog, producerStateManager, this::logStartOffset);
        this.partitionMetadataFile = new PartitionMetadataFile(PartitionMetadataFile.newFile(localLog.dir()));
        // A tiered log's start may lie below its first local segment: the remote tier holds the offsets between.
        updateLogStartOffset(
                remoteLogEnabled()
                        ? logStartOffset
                        : Math.max(
                                logStartOffset,
                                localLog.segments().firstSegmentBaseOffset().orElse(0L)));
        watermarks.maybeIncrementFirstUnstableOffset();
        initializeTopicId();
        this.producerExpireCheck = localLog.scheduler()
                .schedule(
                        "PeriodicProducerExpirationCheck",
                        () -> removeExpiredProducers(localLog.time().millis()),
                        producerIdExpirationCheckIntervalMs,
                        producerIdExpirationCheckIntervalMs);
    }

    /**
     * Opens the log in {@code dir} (created if missing; its name gives the partition), loading and, if needed,
     * recovering it with {@link LogLoader}.
     *
     * @param logStartOffset                      the log start offset last checkpointed, or 0
     * @param recoveryPoint                       the recovery point last checkpointed, or 0
     * @param scheduler                           runs delayed deletions, flushes and the producer expiration
     * @param maxTransactionTimeoutMs             {@code transaction.max.timeout.ms}
     * @param producerIdExpirationCheckIntervalMs {@code producer.id.expiration.check.interval.ms}
     * @param lastShutdownClean                   whether the log directory held the clean shutdown marker
     * @param topicId                             the topic's id, written to {@code partition.metadata} if it has
     *                                            none yet and checked against it otherwise
     * @throws InconsistentTopicIdException if {@code partition.metadata} holds another topic id
     * @throws IllegalArgumentException     if the directory's name is not a partition's
     */
    public static UnifiedLog create(
            Path dir,
            LogConfig config,
            long logStartOffset,
            long recoveryPoint,
            Scheduler scheduler,
            InstantSource time,
            int maxTransactionTimeoutMs,
            ProducerStateManagerConfig producerStateManagerConfig,
            int producerIdExpirationCheckIntervalMs,
            boolean lastShutdownClean,
            Optional<Uuid> topicId)
            throws IOException {
        return create(
                dir,
                config,
                logStartOffset,
                recoveryPoint,
                scheduler,
                time,
                maxTransactionTimeoutMs,
                producerStateManagerConfig,
                producerIdExpirationCheckIntervalMs,
                lastShutdownClean,
                topicId,
                false,
                new LogDirFailureChannel());
    }

    /**
     * {@link #create(Path, LogConfig, long, long, Scheduler, InstantSource, int, ProducerStateManagerConfig, int,
     * boolean, Optional) create}, on a broker where tiered storage may be enabled.
     *
     * @param remoteStorageSystemEnable the broker's {@code remote.log.storage.system.enable}
     * @param logDirFailureChannel      where a failure of the background flush after a roll reports the log
     *                                  directory offline
     */
    public static UnifiedLog create(
            Path dir,
            LogConfig config,
            long logStartOffset,
            long recoveryPoint,
            Scheduler scheduler,
            InstantSource time,
            int maxTransactionTimeoutMs,
            ProducerStateManagerConfig producerStateManagerConfig,
            int producerIdExpirationCheckIntervalMs,
            boolean lastShutdownClean,
            Optional<Uuid> topicId,
            boolean remoteStorageSystemEnable,
            LogDirFailureChannel logDirFailureChannel)
            throws IOException {
        Files.createDirectories(dir);
        TopicPartition topicPartition = LogDirNames.parseTopicPartitionName(dir);
        LogSegments segments = new LogSegments(topicPartition);
        try {
            LeaderEpochFileCache leaderEpochCache = new LeaderEpochFileCache(
                    topicPartition, new LeaderEpochCheckpointFile(LeaderEpochCheckpointFile.newFile(dir)));
            ProducerStateManager producerStateManager =
                    new ProducerStateManager(topicPartition, dir, maxTransactionTimeoutMs, producerStateManagerConfig);
            LoadedLogOffsets offsets = new LogLoader(
                            dir,
                            topicPartition,
                            config,
                            scheduler,
                            time,
                            lastShutdownClean,
                            segments,
                            logStartOffset,
                            recoveryPoint,
                            leaderEpochCache,
                            producerStateManager,
                            isRemoteLogEnabled(remoteStorageSystemEnable, config, topicPartition.topic()))
                    .load();
            LocalLog localLog = new LocalLog(
                    dir,
                    config,
                    segments,
                    offsets.recoveryPoint(),
                    offsets.nextOffsetMetadata(),
                    scheduler,
                    time,
                    topicPartition);
            return new UnifiedLog(
                    offsets.logStartOffset(),
                    localLog,
                    producerIdExpirationCheckIntervalMs,
                    leaderEpochCache,
                    producerStateManager,
                    topicId,
                    offsets.recoveredSegments(),
                    remoteStorageSystemEnable,
                    logDirFailureChannel);
        } catch (IOException | RuntimeException e) {
            try {
                segments.closeHandlers();
            } catch (IOException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
    }

    private void initializeTopicId() throws IOException {
        if (partitionMetadataFile.exists()) {
            Uuid fileTopicId = partitionMetadataFile.read().topicId();
            if (topicId.isPresent() && !topicId.get().equals(fileTopicId)) {
                throw new InconsistentTopicIdException(
                        "Tried to assign topic ID " + topicId.get() + " to log for " + "topic partition "
                                + topicPartition() + ", but log already contained topic ID " + fileTopicId);
            }
            topicId = Optional.of(fileTopicId);
        } else if (topicId.isPresent()) {
            partitionMetadataFile.write(topicId.get());
        }
    }

    // Accessors.

    /** The partition directory. */
    public Path dir() {
        return localLog.dir();
    }

    /** The log directory the partition directory is in, absolute. */
    public Path parentDir() {
        return localLog.dir().toAbsolutePath().normalize().getParent();
    }

    /** The partition. */
    public TopicPartition topicPartition() {
        return localLog.topicPartition();
    }

    /** The topic's settings. */
    public LogConfig config() {
        return localLog.config();
    }

    /** The topic id, from {@code partition.metadata} or as given when the log was created. */
    public Optional<Uuid> topicId() {
        return topicId;
    }

    /**
     * Whether this log is tiered: the broker's {@code remote.log.storage.system.enable}, the topic's
     * {@code remote.storage.enable}, and not an internal topic (Kafka's {@code remoteLogEnabled}).
     */
    public boolean remoteLogEnabled() {
        return isRemoteLogEnabled(
                remoteStorageSystemEnable, config(), topicPartition().topic());
    }

    /**
     * Whether this log is tiered and still copies to the remote tier ({@code remote.log.copy.disable} false): only
     * then does local retention follow {@code local.retention.*} and wait for the copies (KIP-950).
     */
    public boolean remoteLogEnabledAndRemoteCopyEnabled() {
        return remoteLogEnabled() && !config().remoteLogCopyDisable();
    }

    /** Kafka's {@code UnifiedLog.isRemoteLogEnabled}. */
    public static boolean isRemoteLogEnabled(boolean remoteStorageSystemEnable, LogConfig config, String topic) {
        return config.remoteStorageEnable() && mayBeTiered(remoteStorageSystemEnable, topic);
    }

    // Whether the topic can be tiered on this broker, whether or not it is now: tiering is on and it is not internal.
    private static boolean mayBeTiered(boolean remoteStorageSystemEnable, String topic) {
        return remoteStorageSystemEnable
                && !Topic.isInternal(topic)
                && !LogManager.CLUSTER_METADATA_TOPIC.equals(topic);
    }

    /** The partition's {@code partition.metadata}. */
    public PartitionMetadataFile partitionMetadataFile() {
        return partitionMetadataFile;
    }

    /** The leader epochs. */
    public LeaderEpochFileCache leaderEpochCache() {
        return leaderEpochCache;
    }

    /** The producer state. */
    public ProducerStateManager producerStateManager() {
        return producerStateManager;
    }

    /** The segments opening the log recovered batch by batch, by base offset; empty after a clean shutdown. */
    public List<Long> segmentsRecoveredAtLoad() {
        return segmentsRecoveredAtLoad;
    }

    /** The first offset readers may read. */
    public long logStartOffset() {
        return logStartOffset;
    }

    /**
     * The first offset in the local segments: the log start offset, or above it once tiered segments left the local
     * log (Kafka's {@code localLogStartOffset}). Offsets in [{@link #logStartOffset}, this) are read from the remote
     * tier.
     */
    public long localLogStartOffset() {
        return Math.max(
                logStartOffset, localLog.segments().firstSegmentBaseOffset().orElse(logStartOffset));
    }

    /** The last offset copied to the remote tier, or -1 when none is (Kafka's {@code highestOffsetInRemoteStorage}). */
    public long highestOffsetInRemoteStorage() {
        return highestOffsetInRemoteStorage;
    }

    /**
     * Moves the log start offset up to {@code remoteLogStartOffset} after remote retention deleted the segments
     * below it (Kafka's {@code updateLogStartOffsetFromRemoteTier}); nothing if the log is not tiered.
     *
     * @return whether it moved
     */
    public boolean updateLogStartOffsetFromRemoteTier(long remoteLogStartOffset) throws IOException {
        if (!remoteLogEnabled()) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "Ignoring the remote tier's log start offset " + remoteLogStartOffset + " of " + topicPartition()
                            + ": remote storage is not enabled for it");
            return false;
        }
        return maybeIncrementLogStartOffset(remoteLogStartOffset, LogStartOffsetIncrementReason.SEGMENT_DELETION);
    }

    /** Records that the remote tier holds every offset up to {@code offset}; it never moves back. */
    public void updateHighestOffsetInRemoteStorage(long offset) {
        synchronized (lock) {
            highestOffsetInRemoteStorage = Math.max(highestOffsetInRemoteStorage, offset);
        }
    }

    /** The offset the next append gets. */
    public long logEndOffset() {
        return localLog.logEndOffset();
    }

    /** The log end offset with its segment and position. */
    public LogOffsetMetadata logEndOffsetMetadata() {
        return localLog.logEndOffsetMetadata();
    }

    /** The first offset not known to be flushed. */
    public long recoveryPoint() {
        return localLog.recoveryPoint();
    }

    /** When the log was last flushed up to its end, in milliseconds. */
    public long lastFlushTime() {
        return localLog.lastFlushTime();
    }

    /** Whether the log holds no offsets: its start is its end. */
    public boolean isEmpty() {
        return logStartOffset == logEndOffset();
    }

    /** The number of segments. */
    public int numberOfSegments() {
        return localLog.segments().numberOfSegments();
    }

    /** The bytes of all segments. */
    public long size() {
        return LogSegments.sizeInBytes(logSegments());
    }

    /** The segment taking appends. */
    public LogSegment activeSegment() {
        return localLog.segments().activeSegment();
    }

    /** The segments, oldest first; a copy. */
    public List<LogSegment> logSegments() {
        synchronized (lock) {
            return List.copyOf(localLog.segments().values());
        }
    }

    /** The segments holding offsets from {@code from} up to {@code to} (exclusive); a copy. */
    public List<LogSegment> logSegments(long from, long to) {
        synchronized (lock) {
            return List.copyOf(localLog.segments().values(from, to));
        }
    }

    /** The segments before the active one, from the one holding {@code from}; a copy. */
    public List<LogSegment> nonActiveLogSegmentsFrom(long from) {
        synchronized (lock) {
            return List.copyOf(localLog.segments().nonActiveLogSegmentsFrom(from));
        }
    }

    /** The local log, for the log manager and tests. */
    LocalLog localLog() {
        return localLog;
    }

    // The high watermark and the last stable offset.

    /** The offset up to which (exclusive) appends are acknowledged: what consumers may read. */
    public long highWatermark() {
        return watermarks.highWatermark();
    }

    /** Sets the high watermark, kept within [log start offset, log end offset]; returns the value set. */
    public long updateHighWatermark(long hw) throws IOException {
        return watermarks.updateHighWatermark(new LogOffsetMetadata(hw));
    }

    /** Sets the high watermark, kept within [log start offset, log end offset]; returns the value set. */
    public long updateHighWatermark(LogOffsetMetadata highWatermark) throws IOException {
        return watermarks.updateHighWatermark(highWatermark);
    }

    /**
     * Moves the high watermark up to {@code newHighWatermark} if that is higher (or the same offset in a newer
     * segment, after a roll): what a leader does once an append is acknowledged.
     *
     * @return the old high watermark, if it moved
     * @throws IllegalArgumentException if the new high watermark is past the log end offset
     */
    public Optional<LogOffsetMetadata> maybeIncrementHighWatermark(LogOffsetMetadata newHighWatermark)
            throws IOException {
        return watermarks.maybeIncrementHighWatermark(newHighWatermark);
    }

    /** The first offset of the earliest transaction not yet decided below the high watermark, if any. */
    public OptionalLong firstUnstableOffset() {
        return watermarks.firstUnstableOffset();
    }

    /**
     * The offset up to which (exclusive) every transaction is decided and acknowledged: the first unstable offset,
     * or the high watermark if that is lower or there is none. What read_committed consumers may read.
     */
    public long lastStableOffset() {
        return watermarks.lastStableOffset();
    }

    /** The log start, log end, high watermark and last stable offsets, with positions: what a fetch reports. */
    public LogOffsetSnapshot fetchOffsetSnapshot() throws IOException {
        LogOffsetMetadata lastStable = watermarks.fetchLastStableOffsetMetadata();
        LogOffsetMetadata highWatermark = watermarks.fetchHighWatermarkMetadata();
        return new LogOffsetSnapshot(logStartOffset, localLog.logEndOffsetMetadata(), highWatermark, lastStable);
    }

    /** Where {@code offset} lies, or only the offset if it is outside the local log; see {@link LogWatermarks}. */
    public LogOffsetMetadata maybeConvertToOffsetMetadata(long offset) throws IOException {
        return watermarks.maybeConvertToOffsetMetadata(offset);
    }

    // The log start offset.

    /**
     * Moves the log start offset up to {@code newLogStartOffset} if that is higher, as Kafka does for DeleteRecords
     * and retention: the epochs before it are dropped and the producer state follows; the segments below it go at
     * the next retention check.
     *
     * @return whether it moved
     * @throws OffsetOutOfRangeException if {@code newLogStartOffset} is above the high watermark
     */
    public boolean maybeIncrementLogStartOffset(long newLogStartOffset, LogStartOffsetIncrementReason reason)
            throws IOException {
        synchronized (lock) {
            if (newLogStartOffset > highWatermark()) {
                throw new OffsetOutOfRangeException("Cannot increment the log start offset to " + newLogStartOffset
                        + " of partition " + topicPartition() + " since it is larger than the high watermark "
                        + highWatermark());
            }
            localLog.checkIfMemoryMappedBufferClosed();
            if (newLogStartOffset <= logStartOffset) {
                return false;
            }
            updateLogStartOffset(newLogStartOffset);
            LOG.log(
                    System.Logger.Level.INFO,
                    "Incremented log start offset of " + topicPartition() + " to " + newLogStartOffset + " due to "
                            + reason);
            leaderEpochCache.truncateFromStart(logStartOffset);
            producerStateManager.onLogStartOffsetIncremented(newLogStartOffset);
            watermarks.maybeIncrementFirstUnstableOffset();
            return true;
        }
    }

    private void updateLogStartOffset(long offset) throws IOException {
        logStartOffset = offset;
        if (highWatermark() < offset) {
            updateHighWatermark(offset);
        }
        if (localLog.recoveryPoint() < offset) {
            localLog.updateRecoveryPoint(offset);
        }
    }

    // Appends.

    /** {@code appendAsLeader(records, leaderEpoch, AppendOrigin.CLIENT)}. */
    public LogAppendInfo appendAsLeader(MemoryRecords records, int leaderEpoch) throws IOException {
        return appendAsLeader(records, leaderEpoch, AppendOrigin.CLIENT);
    }

    /** An append of a client, or of a coordinator's records other than transaction markers. */
    public LogAppendInfo appendAsLeader(MemoryRecords records, int leaderEpoch, AppendOrigin origin)
            throws IOException {
        return appendAsLeader(
                records.buffer(), leaderEpoch, origin, ProducerAppendInfo.TV_UNKNOWN, VerificationGuard.SENTINEL);
    }

    /** An append that needs no verification: not a transactional batch opening a transaction. */
    public LogAppendInfo appendAsLeader(
            ByteBuffer records, int leaderEpoch, AppendOrigin origin, short transactionVersion) throws IOException {
        return appendAsLeader(records, leaderEpoch, origin, transactionVersion, VerificationGuard.SENTINEL);
    }

    /**
     * Validates a produced batch, gives it offsets from the log end and the leader epoch, and appends it, as
     * Kafka's {@code appendAsLeader}: {@link LogValidator} with the topic's settings (the request's bytes are
     * changed in place unless recompressed); a batch larger than the segment size is refused; the active segment
     * rolls if the batch must not go there; then the producer state checks the batch: a client's retry of a batch
     * the log holds returns that batch's offsets and appends nothing; a batch out of sequence or of a fenced epoch
     * is refused. Aborted transactions go to the transaction index. The log is flushed every
     * {@code flush.messages} offsets. The high watermark does not move: the caller moves it once the append is
     * acknowledged.
     *
     * @param records            one magic 2 batch, from its position to its limit
     * @param leaderEpoch        the leader epoch to stamp on the batch
     * @param origin             {@link AppendOrigin#CLIENT} or {@link AppendOrigin#COORDINATOR}
     * @param transactionVersion a transaction marker's transaction version (a coordinator's); else
     *                           {@link ProducerAppendInfo#TV_UNKNOWN}
     * @param verificationGuard  the verification of a transactional batch that opens a transaction
     *                           ({@link #maybeStartTransactionVerification}); else {@link VerificationGuard#SENTINEL}
     * @throws io.krabka.kernel.record.RecordException (its subclasses) for a batch that fails validation
     * @throws RecordBatchTooLargeException if the batch is larger than the segment size
     * @throws ProducerStateException       (its subclasses) for a batch the producer state refuses
     * @throws KafkaStorageException        if the log is closed
     */
    public LogAppendInfo appendAsLeader(
            ByteBuffer records,
            int leaderEpoch,
            AppendOrigin origin,
            short transactionVersion,
            VerificationGuard verificationGuard)
            throws IOException {
        if (origin != AppendOrigin.CLIENT && origin != AppendOrigin.COORDINATOR) {
            throw new IllegalArgumentException("a leader appends for clients and coordinators, not for " + origin);
        }
        synchronized (lock) {
            localLog.checkIfMemoryMappedBufferClosed();
            LogConfig config = config();
            long firstOffset = localLog.logEndOffset();
            LogValidator.ValidationResult validated = LogValidator.validateMessagesAndAssignOffsets(
                    records,
                    topicPartition().toString(),
                    config.validatorConfig(),
                    localLog.time().millis(),
                    firstOffset,
                    leaderEpoch,
                    origin == AppendOrigin.CLIENT);
            RecordBatch batch = validated.batch();
            checkSize(validated, batch, config);
            LogSegment segment =
                    maybeRoll(batch.sizeInBytes(), firstOffset, validated.lastOffset(), validated.maxTimestamp());
            LogOffsetMetadata appendOffsetMetadata =
                    new LogOffsetMetadata(firstOffset, segment.baseOffset(), segment.size());
            ProducerStateUpdate update = ProducerStateUpdate.analyze(
                    producerStateManager, batch, appendOffsetMetadata, origin, transactionVersion, verificationGuard);
            OptionalInt epoch = batch.partitionLeaderEpoch() >= 0
                    ? OptionalInt.of(batch.partitionLeaderEpoch())
                    : OptionalInt.empty();
            long logAppendTime = config.messageTimestampType() == TimestampType.LOG_APPEND_TIME
                    ? validated.logAppendTimeMs()
                    : RecordBatch.NO_TIMESTAMP;
            if (update.duplicate().isPresent()) {
                BatchMetadata duplicate = update.duplicate().get();
                return new LogAppendInfo(
                        duplicate.firstOffset(),
                        duplicate.lastOffset(),
                        epoch,
                        validated.maxTimestamp(),
                        duplicate.timestamp(),
                        logStartOffset,
                        validated.sourceCompression(),
                        records.remaining(),
                        List.of());
            }
            if (epoch.isPresent()) {
                leaderEpochCache.assign(epoch.getAsInt(), firstOffset);
            }
            MemoryRecords validRecords = MemoryRecords.readableRecords(
                    validated.validatedRecords(), topicPartition().toString(), 0);
            // The end offset moves right after the write: a failing transaction index write below must not let
            // a later append reuse these offsets.
            localLog.append(validated.lastOffset(), validRecords);
            watermarks.updateHighWatermarkWithLogEndOffset();
            update.apply(producerStateManager, batch, segment);
            producerStateManager.updateMapEndOffset(validated.lastOffset() + 1);
            watermarks.maybeIncrementFirstUnstableOffset();
            if (localLog.unflushedMessages() >= config.flushMessages()) {
                flush(false);
            }
            return new LogAppendInfo(
                    firstOffset,
                    validated.lastOffset(),
                    epoch,
                    validated.maxTimestamp(),
                    logAppendTime,
                    logStartOffset,
                    validated.sourceCompression(),
                    records.remaining(),
                    List.of());
        }
    }

    /**
     * Begins a verification that this partition is in {@code producerId}'s transaction, as Kafka's
     * {@code maybeStartTransactionVerification}: none is needed ({@link VerificationGuard#SENTINEL}) when the
     * producer has a transaction open here at this epoch; otherwise the guard its first batch must carry.
     *
     * @param supportsEpochBump whether the producer speaks transaction version 2
     * @throws InvalidProducerEpochException if the epoch is older than the producer's
     */
    public VerificationGuard maybeStartTransactionVerification(
            long producerId, short epoch, boolean supportsEpochBump) {
        synchronized (lock) {
            Optional<ProducerStateEntry> entry = producerStateManager.lastEntry(producerId);
            if (entry.isPresent() && epoch < entry.get().producerEpoch()) {
                throw new InvalidProducerEpochException("Epoch of producer " + producerId + " is " + epoch
                        + ", which is smaller than the last seen epoch "
                        + entry.get().producerEpoch());
            }
            if (producerStateManager.hasOngoingTransaction(producerId, epoch)) {
                return VerificationGuard.SENTINEL;
            }
            return producerStateManager
                    .maybeCreateVerificationStateEntry(
                            producerId,
                            epoch,
                            supportsEpochBump,
                            localLog.time().millis())
                    .guard();
        }
    }

    /** The producers this log knows, with their open transactions. */
    public List<ActiveProducer> activeProducers() {
        synchronized (lock) {
            return producerStateManager.activeProducers().values().stream()
                    .map(entry -> new ActiveProducer(
                            entry.producerId(),
                            entry.producerEpoch(),
                            entry.lastSeq(),
                            entry.lastTimestamp(),
                            entry.coordinatorEpoch(),
                            entry.currentTxnFirstOffset().orElse(-1L)))
                    .toList();
        }
    }

    /** Whether {@code producerId} has a transaction open here at {@code epoch}. */
    public boolean hasOngoingTransaction(long producerId, short epoch) {
        synchronized (lock) {
            return producerStateManager.hasOngoingTransaction(producerId, epoch);
        }
    }

    private void checkSize(LogValidator.ValidationResult validated, RecordBatch batch, LogConfig config) {
        if (validated.messageSizeMaybeChanged() && batch.sizeInBytes() > config.maxMessageBytes()) {
            throw new RecordTooLargeException("Message batch size is " + batch.sizeInBytes() + " bytes in append to "
                    + "partition " + topicPartition() + " which exceeds the maximum configured size of "
                    + config.maxMessageBytes() + ".");
        }
        if (batch.sizeInBytes() > config.segmentSize()) {
            throw new RecordBatchTooLargeException("Message batch size is " + batch.sizeInBytes() + " bytes in append "
                    + "to partition " + topicPartition() + ", which exceeds the maximum configured segment size of "
                    + config.segmentSize() + ".");
        }
    }

    /** Records that the leader {@code leaderEpoch} starts writing at {@code startOffset}. */
    public void assignEpochStartOffset(int leaderEpoch, long startOffset) throws IOException {
        leaderEpochCache.assign(leaderEpoch, startOffset);
    }

    /** The latest leader epoch. */
    public OptionalInt latestEpoch() {
        return leaderEpochCache.latestEpoch();
    }

    /** Kafka's OffsetsForLeaderEpoch answer for {@code leaderEpoch}; empty if it is not known. */
    public Optional<EpochEndOffset> endOffsetForEpoch(int leaderEpoch) {
        EpochEndOffset found = leaderEpochCache.endOffsetFor(leaderEpoch, logEndOffset());
        return found.endOffset() == EpochEndOffset.UNDEFINED_EPOCH_OFFSET ? Optional.empty() : Optional.of(found);
    }

    // Rolling and flushing.

    private LogSegment maybeRoll(int messagesSize, long firstOffset, long lastOffset, long maxTimestamp)
            throws IOException {
        LogSegment segment = localLog.segments().activeSegment();
        LogConfig config = config();
        RollParams params = new RollParams(
                config.maxSegmentMs(),
                config.segmentSize(),
                maxTimestamp,
                lastOffset,
                messagesSize,
                localLog.time().millis());
        return segment.shouldRoll(params) ? roll(OptionalLong.of(firstOffset)) : segment;
    }

    /** Rolls the log to a new empty segment at the log end offset. */
    public LogSegment roll() throws IOException {
        return roll(OptionalLong.empty());
    }

    /**
     * Rolls the log to a new segment at the larger of {@code expectedNextOffset} and the log end offset: a producer
     * snapshot is taken at its base offset (so recovery of the new segment starts there), and the snapshot and the
     * old segments are flushed in the background, as Kafka does: an fsync under the lock would hold every append
     * back behind the disk, which is busy flushing the rolled segment.
     */
    public LogSegment roll(OptionalLong expectedNextOffset) throws IOException {
        synchronized (lock) {
            LogSegment newSegment = localLog.roll(expectedNextOffset.orElse(0L));
            producerStateManager.updateMapEndOffset(newSegment.baseOffset());
            Optional<Path> snapshot = producerStateManager.takeSnapshot(false);
            watermarks.updateHighWatermarkWithLogEndOffset();
            localLog.scheduler().scheduleOnce("flush-log", () -> {
                if (snapshot.isEmpty() || flushSnapshotInBackground(snapshot.get())) {
                    flushInBackground(newSegment.baseOffset());
                }
            });
            return newSegment;
        }
    }

    // Whether the snapshot is durable; if not, the recovery point must not pass it, so the segments wait.
    private boolean flushSnapshotInBackground(Path snapshot) {
        try {
            ProducerStateManager.flushSnapshot(snapshot);
            return true;
        } catch (IOException e) {
            backgroundFlushFailed("Could not flush the producer snapshot " + snapshot, e);
            return false;
        }
    }

    private void flushInBackground(long offset) {
        try {
            flushUptoOffsetExclusive(offset);
        } catch (KafkaStorageException e) {
            LOG.log(
                    System.Logger.Level.DEBUG,
                    "Not flushing " + topicPartition() + " up to " + offset
                            + ": the log was closed, and flushed, in the meantime");
        } catch (IOException e) {
            backgroundFlushFailed("Could not flush " + topicPartition() + " up to " + offset, e);
        }
    }

    private void backgroundFlushFailed(String message, IOException e) {
        if (DiskFaults.takesLogDirOffline(e)) {
            logDirFailureChannel.maybeAddOfflineLogDir(parentDir(), message, e);
        } else {
            LOG.log(System.Logger.Level.WARNING, message + "; the recovery point stays where it is", e);
        }
    }

    /**
     * Flushes the whole log and moves the recovery point to the log end.
     *
     * @param forceFlushActiveSegment whether to flush the active segment even when it is empty (at a clean
     *                                shutdown, so that its file is durable)
     */
    public void flush(boolean forceFlushActiveSegment) throws IOException {
        flush(logEndOffset(), forceFlushActiveSegment);
    }

    /** Flushes the segments below {@code offset} and moves the recovery point there. */
    public void flushUptoOffsetExclusive(long offset) throws IOException {
        flush(offset, false);
    }

    // The fsync runs outside the lock, so appends go on meanwhile.
    private void flush(long offset, boolean includingOffset) throws IOException {
        long flushOffset = includingOffset ? offset + 1 : offset;
        localLog.checkIfMemoryMappedBufferClosed();
        if (flushOffset > localLog.recoveryPoint()) {
            localLog.flush(flushOffset);
            synchronized (lock) {
                localLog.markFlushed(offset);
            }
        }
    }

    // Reads.

    /**
     * Reads from the batch holding {@code startOffset}, as Kafka's {@code read}: at most {@code maxLength} bytes
     * (the first batch whole if {@code minOneMessage}), up to the log end, the high watermark or the last stable
     * offset as {@code isolation} says; for {@link FetchIsolation#TXN_COMMITTED} with the aborted transactions
     * overlapping the records. The records are a zero-copy slice of a segment file.
     *
     * @throws OffsetOutOfRangeException if {@code startOffset} is below the local log start offset (of a tiered
     *                                   log, the remote tier holds the offsets from the log start offset up to
     *                                   it) or past the log end (also when retention deleted its segment while the
     *                                   read ran)
     */
    public FetchDataInfo read(long startOffset, int maxLength, FetchIsolation isolation, boolean minOneMessage)
            throws IOException {
        checkLocalLogStartOffset(startOffset);
        LogOffsetMetadata maxOffsetMetadata = switch (isolation) {
            case LOG_END -> localLog.logEndOffsetMetadata();
            case HIGH_WATERMARK -> watermarks.fetchHighWatermarkMetadata();
            case TXN_COMMITTED -> watermarks.fetchLastStableOffsetMetadata();
        };
        try {
            return localLog.read(
                    startOffset,
                    maxLength,
                    minOneMessage,
                    maxOffsetMetadata,
                    isolation == FetchIsolation.TXN_COMMITTED);
        } catch (IOException | IllegalStateException e) {
            // A segment deleted while the read ran has its files closed under it: the offset is gone.
            long localStart = localLogStartOffset();
            if (startOffset < localStart) {
                throw new OffsetOutOfRangeException(
                        "Offset " + startOffset + " of partition " + topicPartition()
                                + " was deleted during the read; the local log now starts at " + localStart,
                        e);
            }
            throw e;
        }
    }

    // Below the local log start, a tiered log's offsets are in the remote tier: the caller reads them there.
    private void checkLocalLogStartOffset(long offset) {
        long localStart = localLogStartOffset();
        if (offset < localStart) {
            throw new OffsetOutOfRangeException("Received request for offset " + offset + " for partition "
                    + topicPartition() + ", but we only have log segments starting from offset: " + localStart + ".");
        }
    }

    /** The aborted transactions overlapping [{@code startOffset}, {@code upperBoundOffset}). */
    public List<AbortedTxn> collectAbortedTransactions(long startOffset, long upperBoundOffset) {
        return localLog.collectAbortedTransactions(localLogStartOffset(), startOffset, upperBoundOffset);
    }

    /**
     * Kafka's ListOffsets answer for {@code targetTimestamp}: the first record at or after it, or for the special
     * timestamps ({@link OffsetLookup#EARLIEST_TIMESTAMP} and the others) what they name.
     *
     * @return empty if no record is at or after the timestamp
     */
    public Optional<TimestampAndOffset> fetchOffsetByTimestamp(long targetTimestamp) throws IOException {
        return OffsetLookup.fetchOffsetByTimestamp(this, targetTimestamp);
    }

    // Retention and truncation.

    /**
     * Deletes the oldest segments that are past retention, as Kafka's {@code deleteOldSegments}: under the delete
     * policy those below the log start offset, then while the log is larger than {@code retention.bytes}, then
     * those whose largest timestamp is older than {@code retention.ms}; under compaction or no policy only those
     * below the log start offset. Never a segment holding offsets at or above the high watermark; the active
     * segment only when it is past retention too, after rolling a new one.
     *
     * @return the number of segments deleted
     */
    public int deleteOldSegments() throws IOException {
        return LogRetention.deleteOldSegments(this);
    }

    /** Deletes {@code deletable}, moving the log start offset past them; for {@link LogRetention}, under the lock. */
    int deleteSegments(List<LogSegment> deletable, String reason) throws IOException {
        localLog.checkIfMemoryMappedBufferClosed();
        List<LogSegment> toDelete = new ArrayList<>(deletable);
        if (localLog.segments().numberOfSegments() == toDelete.size()) {
            // A log always has a segment: make the new one before deleting them all.
            LogSegment newSegment = roll();
            if (toDelete.getLast().baseOffset() == newSegment.baseOffset()) {
                toDelete.removeLast();
            }
        }
        if (!toDelete.isEmpty()) {
            long newLocalLogStartOffset = localLog.segments()
                    .higherSegment(toDelete.getLast().baseOffset())
                    .orElseThrow()
                    .baseOffset();
            // A tiered log keeps its start: the remote tier serves the offsets below the new local log start.
            if (!remoteLogEnabled()) {
                maybeIncrementLogStartOffset(newLocalLogStartOffset, LogStartOffsetIncrementReason.SEGMENT_DELETION);
            }
            LOG.log(
                    System.Logger.Level.INFO,
                    "Deleting segments of " + topicPartition() + " due to " + reason + ": " + toDelete);
            localLog.removeAndDeleteSegments(toDelete, true);
        }
        deleteProducerSnapshots(toDelete, true);
        return deletable.size();
    }

    /**
     * Removes every offset at or above {@code targetOffset}, as Kafka's {@code truncateTo}.
     *
     * @return whether anything was removed
     */
    public boolean truncateTo(long targetOffset) throws IOException {
        if (targetOffset < 0) {
            throw new IllegalArgumentException(
                    "Cannot truncate partition " + topicPartition() + " to a negative offset (" + targetOffset + ").");
        }
        synchronized (lock) {
            if (targetOffset >= localLog.logEndOffset()) {
                // An epoch assigned at the end with nothing written after it may conflict with the new leader's.
                leaderEpochCache.truncateFromEnd(logEndOffset());
                return false;
            }
            localLog.checkIfMemoryMappedBufferClosed();
            if (localLog.segments().firstSegmentBaseOffset().orElseThrow() > targetOffset) {
                truncateFullyAndStartAt(targetOffset, OptionalLong.empty());
                return true;
            }
            Collection<LogSegment> deleted = localLog.truncateTo(targetOffset);
            deleteProducerSnapshots(deleted, true);
            leaderEpochCache.truncateFromEnd(targetOffset);
            logStartOffset = Math.min(targetOffset, logStartOffset);
            rebuildProducerState(targetOffset);
            watermarks.maybeIncrementFirstUnstableOffset();
            if (highWatermark() >= localLog.logEndOffset()) {
                updateHighWatermark(localLog.logEndOffsetMetadata());
            }
            return true;
        }
    }

    /**
     * Deletes every segment and starts the log empty at {@code newOffset}, with the log start offset there or at
     * {@code logStartOffset}.
     */
    public void truncateFullyAndStartAt(long newOffset, OptionalLong newLogStartOffset) throws IOException {
        synchronized (lock) {
            localLog.truncateFullyAndStartAt(newOffset);
            leaderEpochCache.clearAndFlush();
            producerStateManager.truncateFullyAndStartAt(newOffset);
            logStartOffset = newLogStartOffset.orElse(newOffset);
            rebuildProducerState(newOffset);
            watermarks.maybeIncrementFirstUnstableOffset();
            updateHighWatermark(localLog.logEndOffsetMetadata());
        }
    }

    private void rebuildProducerState(long lastOffset) throws IOException {
        ProducerStateLoading.rebuildProducerState(
                producerStateManager, localLog.segments(), logStartOffset, lastOffset, localLog.time(), false);
    }

    private void deleteProducerSnapshots(Collection<LogSegment> segments, boolean asyncDelete) throws IOException {
        ProducerStateLoading.deleteProducerSnapshots(
                segments, producerStateManager, asyncDelete, localLog.scheduler(), config());
    }

    // Compaction.

    /**
     * The last batch and epoch of each producer the log knows, which the cleaner keeps so that a producer's
     * sequence and epoch survive compaction (Kafka's {@code lastRecordsOfActiveProducers}).
     */
    public Map<Long, LastRecord> lastRecordsOfActiveProducers() {
        synchronized (lock) {
            return producerStateManager.lastRecordsOfActiveProducers();
        }
    }

    /**
     * A new segment at {@code baseOffset} whose files end with {@code .cleaned}, for the cleaner to write into
     * (Kafka's {@code createNewCleanedSegment}); files of that name an earlier cleaning left are deleted first.
     */
    public LogSegment createNewCleanedSegment(long baseOffset) throws IOException {
        LogConfig config = config();
        LogSegment.deleteIfExists(dir(), baseOffset, LogFileUtils.CLEANED_FILE_SUFFIX);
        return LogSegment.open(
                dir(),
                baseOffset,
                SegmentConfig.from(config),
                localLog.time(),
                false,
                config.initFileSize(),
                config.preallocate(),
                LogFileUtils.CLEANED_FILE_SUFFIX);
    }

    /**
     * Swaps the cleaner's {@code newSegments} in for {@code oldSegments}, crash-safely
     * ({@link LocalLog#replaceSegments}), and deletes the producer snapshots of the old segments whose base offset
     * is gone.
     *
     * @throws KafkaStorageException if the log is closed
     */
    public void replaceSegments(List<LogSegment> newSegments, List<LogSegment> oldSegments) throws IOException {
        synchronized (lock) {
            localLog.checkIfMemoryMappedBufferClosed();
            List<LogSegment> deleted = localLog.replaceSegments(newSegments, oldSegments);
            deleteProducerSnapshots(deleted, true);
        }
    }

    // Producers.

    /** Forgets the producers that have been silent for {@code producer.id.expiration.ms}. */
    public void removeExpiredProducers(long currentTimeMs) {
        synchronized (lock) {
            producerStateManager.removeExpiredProducers(currentTimeMs);
        }
    }

    /** Writes a producer snapshot at the log end, unless one is there. */
    public void takeProducerSnapshot() throws IOException {
        synchronized (lock) {
            localLog.checkIfMemoryMappedBufferClosed();
            producerStateManager.takeSnapshot();
        }
    }

    /**
     * Deletes the producer snapshots below the base offset of the segment before the active one or of the segment
     * holding the recovery point, whichever is lower: after the recovery point is checkpointed, recovery never
     * starts below it. Kafka's {@code deleteSnapshotsAfterRecoveryPointCheckpoint}, but on a broker with tiered
     * storage a log keeps those above its highest copied offset too (every one, for a log not tiered yet): each goes
     * with the copy of the segment ending there, and a topic may turn {@code remote.storage.enable} on later. (Kafka
     * deletes them, and its copy of an older segment then fails on the missing snapshot.)
     *
     * @return the offset below which snapshots were deleted
     */
    public long deleteSnapshotsAfterRecoveryPointCheckpoint() throws IOException {
        synchronized (lock) {
            LogSegments segments = localLog.segments();
            LogSegment active = segments.activeSegment();
            long twoSegmentsMinOffset =
                    segments.lowerSegment(active.baseOffset()).orElse(active).baseOffset();
            long recoveryPoint = localLog.recoveryPoint();
            long recoveryPointOffset = segments.floorSegment(recoveryPoint)
                    .map(LogSegment::baseOffset)
                    .orElse(recoveryPoint);
            long minOffsetToRetain = Math.min(recoveryPointOffset, twoSegmentsMinOffset);
            if (mayBeTiered(remoteStorageSystemEnable, topicPartition().topic()) && !config().remoteLogCopyDisable()) {
                // A segment not yet copied goes to the remote tier with the snapshot at its end.
                minOffsetToRetain = Math.min(minOffsetToRetain, highestOffsetInRemoteStorage + 1);
            }
            producerStateManager.deleteSnapshotsBefore(minOffsetToRetain);
            return minOffsetToRetain;
        }
    }

    // Configuration and lifecycle.

    /** Takes the topic's new settings (AlterConfigs); returns the old ones. */
    public LogConfig updateConfig(LogConfig newConfig) {
        synchronized (lock) {
            LogConfig old = localLog.config();
            localLog.updateConfig(newConfig);
            return old;
        }
    }

    /**
     * Renames the partition directory to {@code name}, e.g. its {@code -delete} name; the log's files follow.
     */
    public void renameDir(String name) throws IOException {
        synchronized (lock) {
            if (localLog.renameDir(name)) {
                producerStateManager.updateParentDir(dir());
                leaderEpochCache = new LeaderEpochFileCache(
                        topicPartition(), new LeaderEpochCheckpointFile(LeaderEpochCheckpointFile.newFile(dir())));
                partitionMetadataFile = new PartitionMetadataFile(PartitionMetadataFile.newFile(dir()));
            }
        }
    }

    /**
     * Closes the log: flushes it (the active segment too), writes a producer snapshot at the log end so that the
     * next open need not scan, and closes the segments, trimming the active one's indexes. Later use fails with
     * {@link KafkaStorageException}.
     */
    @Override
    public void close() throws IOException {
        synchronized (lock) {
            localLog.checkIfMemoryMappedBufferClosed();
            producerExpireCheck.cancel(false);
            flush(true);
            producerStateManager.takeSnapshot();
            localLog.close();
        }
    }

    /** Closes the files without writing to them, as after a disk failure; an open after it recovers the log. */
    public void closeHandlers() throws IOException {
        synchronized (lock) {
            producerExpireCheck.cancel(false);
            localLog.closeHandlers();
        }
    }

    /** Deletes the log's files and directory at once. */
    public void delete() throws IOException {
        synchronized (lock) {
            localLog.checkIfMemoryMappedBufferClosed();
            producerExpireCheck.cancel(false);
            List<LogSegment> deleted = localLog.deleteAllSegments();
            deleteProducerSnapshots(deleted, false);
            localLog.deleteEmptyDir();
        }
    }

    @Override
    public String toString() {
        return "Log(dir=" + dir() + topicId.map(id -> ", topicId=" + id).orElse("") + ", topic="
                + topicPartition().topic() + ", partition=" + topicPartition().partition() + ", highWatermark="
                + highWatermark() + ", lastStableOffset=" + lastStableOffset() + ", logStartOffset=" + logStartOffset
                + ", logEndOffset=" + logEndOffset() + ")";
    }
}
