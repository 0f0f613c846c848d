package io.krabka.kernel.transaction;

import io.krabka.kernel.coordinator.CoordinatorLogReader;
import io.krabka.kernel.coordinator.CoordinatorLogReader.LoadedBatch;
import io.krabka.kernel.coordinator.CoordinatorLogWriter;
import io.krabka.kernel.coordinator.CoordinatorLogWriter.KeyValue;
import io.krabka.kernel.coordinator.CoordinatorPartitions;
import io.krabka.kernel.coordinator.CoordinatorRecordException;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.record.Compression;
import io.krabka.kernel.record.Record;
import io.krabka.spi.common.TopicPartition;
import java.io.IOException;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.kafka.common.errors.InvalidRegularExpression;
import org.apache.kafka.common.message.ListTransactionsResponseData;
import org.apache.kafka.common.protocol.Errors;

/**
 * The transactional ids of the partitions of {@code __transaction_state} this node leads (Kafka's
 * {@code TransactionStateManager}): loads them from the log, writes each change of state to the log before it takes
 * effect, finds the transactions open longer than their timeout, and removes the transactional ids that expired
 * (tombstones). A transactional id's {@link TransactionMetadata} is changed only under its monitor.
 */
final class TransactionStateManager {

    private static final System.Logger LOG = System.getLogger(TransactionStateManager.class.getName());

    private final TransactionCoordinatorConfig config;
    private final TransactionStateTopic topic;
    private final CoordinatorLogWriter writer;
    private final InstantSource time;
    private final Supplier<TransactionVersion> transactionVersionLevel;
    private final CoordinatorPartitions partitions;
    private final Map<Integer, PartitionCache> cache = new ConcurrentHashMap<>();

    /** The transactional ids of one partition, as of the coordinator epoch it was loaded at. */
    private record PartitionCache(int coordinatorEpoch, Map<String, TransactionMetadata> transactions) {}

    /** A transactional id's state, and the coordinator epoch its partition is served at. */
    record CoordinatorEpochAndTxnMetadata(int coordinatorEpoch, TransactionMetadata metadata) {}

    /** An open transaction past its timeout: the producer id and epoch it had when it was found. */
    record TimedOutTransaction(String transactionalId, long producerId, short producerEpoch) {}

    /**
     * A manager.
     *
     * @param transactionVersionLevel the cluster's finalized {@code transaction.version}
     * @param partitions              the partitions of {@code __transaction_state} this node leads
     */
    TransactionStateManager(
            TransactionCoordinatorConfig config,
            TransactionStateTopic topic,
            CoordinatorLogWriter writer,
            InstantSource time,
            Supplier<TransactionVersion> transactionVersionLevel,
            CoordinatorPartitions partitions) {
        this.config = Objects.requireNonNull(config, "config");
        this.topic = Objects.requireNonNull(topic, "topic");
        this.writer = Objects.requireNonNull(writer, "writer");
        this.time = Objects.requireNonNull(time, "time");
        this.transactionVersionLevel = Objects.requireNonNull(transactionVersionLevel, "transactionVersionLevel");
        this.partitions = Objects.requireNonNull(partitions, "partitions");
    }

    /** The cluster's finalized transaction version. */
    TransactionVersion transactionVersionLevel() {
        return transactionVersionLevel.get();
    }

    /** The partition of {@code __transaction_state} of a transactional id. */
    int partitionFor(String transactionalId) {
        return topic.partitionFor(transactionalId);
    }

    /** Whether a transaction timeout is one a producer may ask for: positive, at most transaction.max.timeout.ms. */
    boolean validateTransactionTimeoutMs(int txnTimeoutMs) {
        return txnTimeoutMs > 0 && txnTimeoutMs <= config.transactionMaxTimeoutMs();
    }

    /**
     * A transactional id's state, if it has one.
     *
     * @throws org.apache.kafka.common.errors.ApiException COORDINATOR_LOAD_IN_PROGRESS while its partition loads,
     *                                                     NOT_COORDINATOR if this node does not serve it
     */
    Optional<CoordinatorEpochAndTxnMetadata> getTransactionState(String transactionalId) {
        PartitionCache partition = servedPartition(transactionalId);
        return Optional.ofNullable(partition.transactions().get(transactionalId))
                .map(metadata -> new CoordinatorEpochAndTxnMetadata(partition.coordinatorEpoch(), metadata));
    }

    /**
     * A transactional id's state: the one it has, or {@code created} if it has none.
     *
     * @throws org.apache.kafka.common.errors.ApiException as {@link #getTransactionState}
     */
    CoordinatorEpochAndTxnMetadata putTransactionStateIfNotExists(TransactionMetadata created) {
        PartitionCache partition = servedPartition(created.transactionalId());
        TransactionMetadata metadata = partition.transactions().putIfAbsent(created.transactionalId(), created);
        return new CoordinatorEpochAndTxnMetadata(partition.coordinatorEpoch(), metadata != null ? metadata : created);
    }

    private PartitionCache servedPartition(String transactionalId) {
        int partition = partitionFor(transactionalId);
        Errors state = partitions.state(partition);
        PartitionCache cached = cache.get(partition);
        if (state != Errors.NONE || cached == null) {
            throw (state != Errors.NONE ? state : Errors.NOT_COORDINATOR).exception();
        }
        return cached;
    }

    /**
     * Writes a change of a transactional id to its partition, as Kafka's {@code appendTransactionToLog}. The caller
     * holds the id's monitor and completes (or abandons) the transition after.
     *
     * @throws org.apache.kafka.common.errors.ApiException the coordinator's error if the write fails, or
     *                                                     NOT_COORDINATOR if the partition moved on meanwhile
     */
    void appendTransactionToLog(String transactionalId, int coordinatorEpoch, TxnTransitMetadata transit) {
        int partition = partitionFor(transactionalId);
        writer.append(
                new TopicPartition(TransactionStateTopic.NAME, partition),
                coordinatorEpoch,
                Compression.NONE,
                List.of(new KeyValue(
                        TransactionLog.keyToBytes(transactionalId),
                        TransactionLog.valueToBytes(transit, transactionVersionLevel()))));
        PartitionCache cached = cache.get(partition);
        if (cached == null || cached.coordinatorEpoch() != coordinatorEpoch) {
            throw Errors.NOT_COORDINATOR.exception(
                    "the coordinator of " + transactionalId + " moved on while " + transit.txnState() + " was written");
        }
    }

    /**
     * Writes a prepared change of a transactional id and completes it, under the id's monitor; on failure the change
     * is abandoned and the error thrown.
     */
    void writeTransition(
            String transactionalId, int coordinatorEpoch, TransactionMetadata metadata, TxnTransitMetadata transit) {
        try {
            appendTransactionToLog(transactionalId, coordinatorEpoch, transit);
        } catch (RuntimeException e) {
            metadata.abandonTransition();
            throw e;
        }
        metadata.completeTransitionTo(transit);
    }

    // Loading and unloading.

    /**
     * Reads a partition of {@code __transaction_state}: the last state of each transactional id, tombstones removing
     * them; records of unknown versions are skipped, as Kafka skips them.
     *
     * @return the records read and the transactions being decided, whose markers are to be written
     */
    Loaded load(int partition, int coordinatorEpoch, UnifiedLog log) throws IOException {
        Map<String, TransactionMetadata> loaded = new ConcurrentHashMap<>();
        long[] records = {0};
        CoordinatorLogReader.read(log, config.transactionLogLoadBufferSize(), batches -> {
            for (LoadedBatch batch : batches) {
                for (Record record : batch.records()) {
                    replay(log, record, loaded);
                    records[0]++;
                }
            }
        });
        cache.put(partition, new PartitionCache(coordinatorEpoch, loaded));
        return new Loaded(
                records[0],
                loaded.values().stream()
                        .filter(metadata -> metadata.state().isPreparing())
                        .toList());
    }

    /** What {@link #load} read: its records, and the transactions being decided. */
    record Loaded(long records, List<TransactionMetadata> preparing) {}

    private static void replay(UnifiedLog log, Record record, Map<String, TransactionMetadata> loaded) {
        TransactionLog.Read read;
        try {
            read = TransactionLog.read(record.key(), record.value());
        } catch (CoordinatorRecordException e) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "Ignoring the record at " + record.offset() + " of " + log.topicPartition() + ": "
                            + e.getMessage());
            return;
        }
        switch (read) {
            case TransactionLog.TxnRecord txn ->
                loaded.put(txn.transactionalId(), TransactionMetadata.fromLog(txn.transactionalId(), txn.value()));
            case TransactionLog.Tombstone tombstone -> loaded.remove(tombstone.transactionalId());
        }
    }

    /** Forgets a partition this node no longer leads. */
    void unload(int partition) {
        cache.remove(partition);
    }

    // Timeouts, expiry and listing.

    /** The transactions open longer than their timeout, with no change being written. */
    List<TimedOutTransaction> timedOutTransactions() {
        long now = time.millis();
        List<TimedOutTransaction> timedOut = new ArrayList<>();
        for (PartitionCache partition : cache.values()) {
            for (TransactionMetadata metadata : partition.transactions().values()) {
                synchronized (metadata) {
                    if (metadata.state() == TransactionState.ONGOING
                            && !metadata.pendingTransitionInProgress()
                            && metadata.txnStartTimestamp() + metadata.txnTimeoutMs() < now) {
                        timedOut.add(new TimedOutTransaction(
                                metadata.transactionalId(), metadata.producerId(), metadata.producerEpoch()));
                    }
                }
            }
        }
        return timedOut;
    }

    /**
     * Removes the transactional ids unchanged for {@code transactional.id.expiration.ms} with no transaction under
     * way: a tombstone for each, one batch per partition, then they leave the cache (Kafka's
     * {@code removeExpiredTransactionalIds}).
     */
    void removeExpiredTransactionalIds() {
        long now = time.millis();
        cache.forEach((partition, cached) -> {
            List<TransactionMetadata> expired = new ArrayList<>();
            for (TransactionMetadata metadata : cached.transactions().values()) {
                synchronized (metadata) {
                    if (!metadata.pendingTransitionInProgress()
                            && metadata.state().isExpirationAllowed()
                            && metadata.txnLastUpdateTimestamp() <= now - config.transactionalIdExpirationMs()) {
                        metadata.prepareDead();
                        expired.add(metadata);
                    }
                }
            }
            if (!expired.isEmpty()) {
                writeTombstones(partition, cached, expired);
            }
        });
    }

    private void writeTombstones(int partition, PartitionCache cached, List<TransactionMetadata> expired) {
        boolean written = false;
        try {
            writer.append(
                    new TopicPartition(TransactionStateTopic.NAME, partition),
                    cached.coordinatorEpoch(),
                    Compression.NONE,
                    expired.stream()
                            .map(metadata -> new KeyValue(TransactionLog.keyToBytes(metadata.transactionalId()), null))
                            .toList());
            written = true;
        } catch (RuntimeException e) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "Could not remove " + expired.size() + " expired transactional ids of partition " + partition
                            + "; the next check tries again: " + e.getMessage());
        }
        for (TransactionMetadata metadata : expired) {
            synchronized (metadata) {
                if (written) {
                    cached.transactions().remove(metadata.transactionalId(), metadata);
                    LOG.log(System.Logger.Level.INFO, "Removed expired transactional id " + metadata.transactionalId());
                }
                metadata.abandonTransition();
            }
        }
    }

    /**
     * ListTransactions: the transactional ids of this node, filtered by producer id, state, time open (longer than
     * {@code durationMs}, when not negative) and a regular expression over the whole id.
     *
     * @throws InvalidRegularExpression if the pattern is not one
     */
    ListTransactionsResponseData listTransactionStates(
            Set<Long> producerIds, Set<String> stateNames, long durationMs, String idPattern) {
        ListTransactionsResponseData response = new ListTransactionsResponseData();
        if (partitions.anyLoading()) {
            return response.setErrorCode(Errors.COORDINATOR_LOAD_IN_PROGRESS.code());
        }
        Set<TransactionState> states = EnumSet.noneOf(TransactionState.class);
        for (String name : stateNames) {
            TransactionState.fromName(name)
                    .ifPresentOrElse(
                            states::add, () -> response.unknownStateFilters().add(name));
        }
        Pattern pattern = compile(idPattern);
        long now = time.millis();
        for (PartitionCache partition : cache.values()) {
            for (TransactionMetadata metadata : partition.transactions().values()) {
                synchronized (metadata) {
                    boolean listed = metadata.state() != TransactionState.DEAD
                            && (producerIds.isEmpty() || producerIds.contains(metadata.producerId()))
                            && (stateNames.isEmpty() || states.contains(metadata.state()))
                            && (durationMs < 0 || now - metadata.txnStartTimestamp() > durationMs)
                            && (pattern == null
                                    || pattern.matcher(metadata.transactionalId())
                                            .matches());
                    if (listed) {
                        response.transactionStates()
                                .add(new ListTransactionsResponseData.TransactionState()
                                        .setTransactionalId(metadata.transactionalId())
                                        .setProducerId(metadata.producerId())
                                        .setTransactionState(metadata.state().stateName()));
                    }
                }
            }
        }
        return response.setErrorCode(Errors.NONE.code());
    }

    private static Pattern compile(String idPattern) {
        if (idPattern == null || idPattern.isEmpty()) {
            return null;
        }
        try {
            return Pattern.compile(idPattern);
        } catch (PatternSyntaxException e) {
            throw new InvalidRegularExpression(String.format(
                    "Transaction ID pattern `%s` is not a valid regular expression: %s.", idPattern, e.getMessage()));
        }
    }
}
