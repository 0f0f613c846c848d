package io.krabka.kernel.transaction;

import io.krabka.kernel.controller.Controller;
import io.krabka.kernel.coordinator.CoordinatorLogWriter;
import io.krabka.kernel.coordinator.CoordinatorPartitions;
import io.krabka.kernel.group.GroupCoordinator;
import io.krabka.kernel.log.LogManager;
import io.krabka.kernel.log.TransactionResult;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.metadata.Feature;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.MetadataPublisher;
import io.krabka.kernel.replica.ReplicaManager;
import io.krabka.kernel.scheduler.Scheduler;
import io.krabka.kernel.transaction.TransactionStateManager.CoordinatorEpochAndTxnMetadata;
import io.krabka.kernel.transaction.TransactionStateManager.TimedOutTransaction;
import io.krabka.spi.common.TopicPartition;
import java.io.IOException;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.message.DescribeTransactionsResponseData;
import org.apache.kafka.common.message.ListTransactionsResponseData;
import org.apache.kafka.common.protocol.Errors;

/**
 * The transaction coordinator of this node (Kafka's {@code TransactionCoordinator}): it owns the partitions of
 * {@code __transaction_state} this node leads and answers InitProducerId, AddPartitionsToTxn (and the partition
 * leaders' verifications, KIP-890), EndTxn, DescribeTransactions and ListTransactions for their transactional ids.
 * Every change of a transactional id is written to its partition before it takes effect or is answered.
 *
 * <p>A decided transaction's markers are written at once, on the request's thread, and the transaction completed
 * before EndTxn is answered when they all are, so that the producer's next transaction never waits for this one;
 * markers that cannot be written yet are written again in the background. Transactions open longer than their
 * timeout are aborted, their producer fenced, every {@code transaction.abort.timed.out.transaction.cleanup.interval.ms};
 * a transaction still being decided when its partition is loaded (after a crash) is completed then.
 */
public final class TransactionCoordinator implements MetadataPublisher, AutoCloseable {

    private static final System.Logger LOG = System.getLogger(TransactionCoordinator.class.getName());

    private final TransactionCoordinatorConfig config;
    private final Scheduler scheduler;
    private final InstantSource time;
    private final TransactionStateTopic topic;
    private final CoordinatorPartitions partitions;
    private final TransactionStateManager manager;
    private final TransactionMarkerWriter markerWriter;
    private final TransactionCompletion completions;
    private final TransactionEnding ending;
    private final ProducerIdManager producerIds;
    private volatile MetadataImage image = MetadataImage.EMPTY;
    private final List<ScheduledFuture<?>> tasks = new ArrayList<>();
    private volatile boolean closed;

    /** The result of InitProducerId. */
    public record InitProducerIdResult(long producerId, short producerEpoch, Errors error) {
        static InitProducerIdResult error(Errors error) {
            return new InitProducerIdResult(
                    TransactionMetadata.NO_PRODUCER_ID, TransactionMetadata.NO_PRODUCER_EPOCH, error);
        }
    }

    /** The result of EndTxn: the producer id and epoch to continue with (transaction version 2). */
    public record EndTxnResult(Errors error, long producerId, short producerEpoch) {
        static EndTxnResult error(Errors error) {
            return new EndTxnResult(error, TransactionMetadata.NO_PRODUCER_ID, TransactionMetadata.NO_PRODUCER_EPOCH);
        }
    }

    /**
     * A coordinator; {@link #startup()} starts its timeouts and expiry, and the integrator registers it with the
     * controller after the replica manager (which creates the logs it loads).
     *
     * @param nodeId         this node: the coordinator serves the partitions it leads
     * @param controller     creates {@code __transaction_state} on first use
     * @param replicaManager writes the markers of data partitions
     * @param groups         writes the markers of {@code __consumer_offsets} and completes transactional offsets
     * @param producerIds    gives out producer ids
     */
    public TransactionCoordinator(
            int nodeId,
            TransactionCoordinatorConfig config,
            Controller controller,
            LogManager logManager,
            ReplicaManager replicaManager,
            GroupCoordinator groups,
            ProducerIdManager producerIds,
            Scheduler scheduler,
            InstantSource time) {
        this.config = Objects.requireNonNull(config, "config");
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
        this.time = Objects.requireNonNull(time, "time");
        this.producerIds = Objects.requireNonNull(producerIds, "producerIds");
        this.topic = new TransactionStateTopic(
                config,
                () -> image.topic(TransactionStateTopic.NAME)
                        .map(t -> t.partitions().size())
                        .orElse(0));
        this.partitions = new CoordinatorPartitions(
                TransactionStateTopic.NAME, new Shard(), nodeId, controller, logManager, scheduler, topic::creation);
        this.manager = new TransactionStateManager(
                config,
                topic,
                new CoordinatorLogWriter(logManager, time),
                time,
                this::transactionVersionLevel,
                partitions);
        this.markerWriter = new TransactionMarkerWriter(replicaManager, groups, () -> image, time);
        this.completions = new TransactionCompletion(manager, markerWriter, scheduler, () -> closed);
        this.ending = new TransactionEnding(manager, completions, producerIds, time, this::transactionVersionLevel);
    }

    /** Starts aborting timed-out transactions and removing expired transactional ids. */
    public synchronized void startup() {
        int abortInterval = config.abortTimedOutTransactionsIntervalMs();
        tasks.add(
                scheduler.schedule("transaction-abort", this::abortTimedOutTransactions, abortInterval, abortInterval));
        int expiryInterval = config.removeExpiredTransactionalIdsIntervalMs();
        tasks.add(scheduler.schedule(
                "transactionalId-expiration", this::removeExpiredTransactionalIds, expiryInterval, expiryInterval));
    }

    @Override
    public String name() {
        return "TransactionCoordinator";
    }

    @Override
    public void onMetadataUpdate(MetadataImage previous, MetadataImage current) {
        image = current;
        partitions.onMetadataUpdate(current);
    }

    /** The cluster's finalized {@code transaction.version}. */
    public TransactionVersion transactionVersionLevel() {
        return TransactionVersion.fromFeatureLevel(
                image.features().getOrDefault(Feature.TRANSACTION_VERSION.featureName(), (short) 0));
    }

    /** The partition of {@code __transaction_state} of a transactional id. */
    public int partitionFor(String transactionalId) {
        return topic.partitionFor(transactionalId);
    }

    /**
     * Where a transactional id's coordinator is: NONE when this node leads its partition (creating
     * {@code __transaction_state} first if it does not exist), else COORDINATOR_NOT_AVAILABLE.
     */
    public CompletableFuture<Errors> findCoordinator(String transactionalId) {
        return partitions
                .ensureTopic(image)
                .handle((done, error) -> error != null || closed
                        ? Errors.COORDINATOR_NOT_AVAILABLE
                        : partitions.leads(image, partitionFor(transactionalId)));
    }

    // InitProducerId.

    /**
     * InitProducerId (Kafka's {@code handleInitProducerId}): without a transactional id a new producer id at epoch
     * 0; with one, the id's producer id at a bumped epoch (a new producer id when the epochs are used up), its open
     * transaction aborted first (CONCURRENT_TRANSACTIONS then, which the producer retries).
     *
     * @param expected the producer id and epoch the producer has (KIP-360), if it gave them
     */
    public InitProducerIdResult initProducerId(
            String transactionalId, int transactionTimeoutMs, Optional<ProducerIdAndEpoch> expected) {
        if (transactionalId == null) {
            try {
                return new InitProducerIdResult(producerIds.generateProducerId().join(), (short) 0, Errors.NONE);
            } catch (RuntimeException e) {
                return InitProducerIdResult.error(Errors.forException(e.getCause() != null ? e.getCause() : e));
            }
        }
        if (transactionalId.isEmpty()) {
            return InitProducerIdResult.error(Errors.INVALID_REQUEST);
        }
        if (!manager.validateTransactionTimeoutMs(transactionTimeoutMs)) {
            return InitProducerIdResult.error(Errors.INVALID_TRANSACTION_TIMEOUT);
        }
        try {
            CoordinatorEpochAndTxnMetadata entry = getOrCreate(transactionalId, transactionTimeoutMs);
            TransactionMetadata metadata = entry.metadata();
            long fencedProducerId;
            short fencedEpoch;
            synchronized (metadata) {
                if (metadata.pendingTransitionInProgress()) {
                    return InitProducerIdResult.error(Errors.CONCURRENT_TRANSACTIONS);
                }
                if (expected.isPresent() && !isValidProducerId(metadata, expected.get())) {
                    return InitProducerIdResult.error(Errors.PRODUCER_FENCED);
                }
                switch (metadata.state()) {
                    case PREPARE_ABORT, PREPARE_COMMIT -> {
                        return InitProducerIdResult.error(Errors.CONCURRENT_TRANSACTIONS);
                    }
                    case EMPTY, COMPLETE_ABORT, COMPLETE_COMMIT -> {
                        TxnTransitMetadata transit = metadata.isProducerEpochExhausted()
                                        && expected.map(e -> e.epoch() == metadata.producerEpoch())
                                                .orElse(true)
                                ? metadata.prepareProducerIdRotation(
                                        producerIds.generateProducerId().join(),
                                        transactionTimeoutMs,
                                        time.millis(),
                                        expected.isPresent())
                                : metadata.prepareIncrementProducerEpoch(
                                        transactionTimeoutMs, expected.map(ProducerIdAndEpoch::epoch), time.millis());
                        manager.writeTransition(transactionalId, entry.coordinatorEpoch(), metadata, transit);
                        LOG.log(
                                System.Logger.Level.INFO,
                                "Initialized transactionalId " + transactionalId + " with producerId "
                                        + transit.producerId() + " and producer epoch " + transit.producerEpoch()
                                        + " on partition " + TransactionStateTopic.NAME + "-"
                                        + partitionFor(transactionalId));
                        return new InitProducerIdResult(transit.producerId(), transit.producerEpoch(), Errors.NONE);
                    }
                    case ONGOING -> {
                        fencedProducerId = metadata.producerId();
                        fencedEpoch = metadata.producerEpoch();
                    }
                    default -> throw illegalState(transactionalId, metadata.state());
                }
            }
            // The open transaction is aborted, its producer fenced; the new producer retries and bumps the epoch
            // again, as Kafka's does.
            EndTxnResult aborted = ending.fenceAndAbort(transactionalId, entry, fencedProducerId, fencedEpoch);
            return InitProducerIdResult.error(
                    aborted.error() == Errors.NONE ? Errors.CONCURRENT_TRANSACTIONS : aborted.error());
        } catch (ApiException e) {
            return InitProducerIdResult.error(Errors.forException(e));
        } catch (java.util.concurrent.CompletionException e) {
            return InitProducerIdResult.error(Errors.forException(e.getCause()));
        }
    }

    /** A producer id and epoch a producer gives with InitProducerId. */
    public record ProducerIdAndEpoch(long producerId, short epoch) {}

    private CoordinatorEpochAndTxnMetadata getOrCreate(String transactionalId, int transactionTimeoutMs) {
        Optional<CoordinatorEpochAndTxnMetadata> existing = manager.getTransactionState(transactionalId);
        if (existing.isPresent()) {
            return existing.get();
        }
        long producerId = producerIds.generateProducerId().join();
        return manager.putTransactionStateIfNotExists(
                TransactionMetadata.created(transactionalId, producerId, transactionTimeoutMs, time.millis()));
    }

    // The producer may continue unless another took the id: no epoch yet (just created), the same producer id, or the
    // previous one at its last epoch (a retry of a rotation whose answer was lost).
    private static boolean isValidProducerId(TransactionMetadata metadata, ProducerIdAndEpoch expected) {
        return metadata.producerEpoch() == TransactionMetadata.NO_PRODUCER_EPOCH
                || expected.producerId() == metadata.producerId()
                || (expected.producerId() == metadata.prevProducerId()
                        && TransactionMetadata.isEpochExhausted(expected.epoch()));
    }

    // AddPartitionsToTxn.

    /**
     * AddPartitionsToTxn (Kafka's {@code handleAddPartitionsToTransaction}): from a client (transaction version 0),
     * or from a partition leader adding the partition of a transactional write (version 2, KIP-890).
     */
    public Errors addPartitions(
            String transactionalId,
            long producerId,
            short producerEpoch,
            Set<TopicPartition> added,
            TransactionVersion clientVersion) {
        if (transactionalId == null || transactionalId.isEmpty()) {
            return Errors.INVALID_REQUEST;
        }
        try {
            CoordinatorEpochAndTxnMetadata entry = manager.getTransactionState(transactionalId)
                    .orElseThrow(Errors.INVALID_PRODUCER_ID_MAPPING::exception);
            TransactionMetadata metadata = entry.metadata();
            synchronized (metadata) {
                if (metadata.pendingTransitionInProgress()) {
                    return Errors.CONCURRENT_TRANSACTIONS;
                }
                if (metadata.producerId() != producerId) {
                    return Errors.INVALID_PRODUCER_ID_MAPPING;
                }
                if (metadata.producerEpoch() != producerEpoch) {
                    return Errors.PRODUCER_FENCED;
                }
                if (metadata.state().isPreparing()) {
                    return Errors.CONCURRENT_TRANSACTIONS;
                }
                if (metadata.state() == TransactionState.ONGOING
                        && metadata.topicPartitions().containsAll(added)) {
                    return Errors.NONE;
                }
                manager.writeTransition(
                        transactionalId,
                        entry.coordinatorEpoch(),
                        metadata,
                        metadata.prepareAddPartitions(added, time.millis(), clientVersion));
                return Errors.NONE;
            }
        } catch (ApiException e) {
            return Errors.forException(e);
        }
    }

    /**
     * A partition leader's verification that partitions are in a transaction (KIP-890 part 1,
     * {@code handleVerifyPartitionsInTransaction}): each partition's error, TRANSACTION_ABORTABLE for one that is not.
     */
    public Map<TopicPartition, Errors> verifyPartitions(
            String transactionalId, long producerId, short producerEpoch, Set<TopicPartition> verified) {
        if (transactionalId == null || transactionalId.isEmpty()) {
            return everyPartition(verified, Errors.INVALID_REQUEST);
        }
        try {
            CoordinatorEpochAndTxnMetadata entry = manager.getTransactionState(transactionalId)
                    .orElseThrow(Errors.INVALID_PRODUCER_ID_MAPPING::exception);
            TransactionMetadata metadata = entry.metadata();
            synchronized (metadata) {
                if (metadata.producerId() != producerId) {
                    return everyPartition(verified, Errors.INVALID_PRODUCER_ID_MAPPING);
                }
                if (metadata.producerEpoch() != producerEpoch) {
                    return everyPartition(verified, Errors.PRODUCER_FENCED);
                }
                if (metadata.state().isPreparing()) {
                    return everyPartition(verified, Errors.CONCURRENT_TRANSACTIONS);
                }
                Set<TopicPartition> inTransaction = metadata.topicPartitions();
                Map<TopicPartition, Errors> errors = new HashMap<>();
                for (TopicPartition partition : verified) {
                    errors.put(
                            partition, inTransaction.contains(partition) ? Errors.NONE : Errors.TRANSACTION_ABORTABLE);
                }
                return errors;
            }
        } catch (ApiException e) {
            return everyPartition(verified, Errors.forException(e));
        }
    }

    /**
     * A partition leader's check, before it appends a transaction's first batch, that its partitions are in the
     * transaction, as Kafka's {@code AddPartitionsToTxnManager} asks it: added at transaction version 2, verified
     * before. Each partition's error, as the leader answers it: PRODUCER_FENCED is INVALID_PRODUCER_EPOCH, and
     * TRANSACTION_ABORTABLE is INVALID_TXN_STATE for a client that does not know it.
     */
    public Map<TopicPartition, Errors> verifyOrAddPartitions(
            String transactionalId,
            long producerId,
            short producerEpoch,
            Set<TopicPartition> partitions,
            TransactionSupportedOperation operation) {
        Map<TopicPartition, Errors> errors = operation.supportsEpochBump()
                ? everyPartition(
                        partitions,
                        addPartitions(transactionalId, producerId, producerEpoch, partitions, TransactionVersion.TV_2))
                : verifyPartitions(transactionalId, producerId, producerEpoch, partitions);
        errors.replaceAll((partition, error) -> switch (error) {
            case PRODUCER_FENCED -> Errors.INVALID_PRODUCER_EPOCH;
            case TRANSACTION_ABORTABLE ->
                operation == TransactionSupportedOperation.DEFAULT_ERROR ? Errors.INVALID_TXN_STATE : error;
            default -> error;
        });
        return errors;
    }

    private static Map<TopicPartition, Errors> everyPartition(Set<TopicPartition> partitions, Errors error) {
        Map<TopicPartition, Errors> errors = new HashMap<>();
        partitions.forEach(partition -> errors.put(partition, error));
        return errors;
    }

    // EndTxn.

    /**
     * EndTxn (Kafka's {@code handleEndTransaction}): decides the transaction, writes its markers and completes it.
     * At transaction version 2 every transaction ends with an epoch bump, which the result gives the producer, and a
     * producer may abort with no transaction open.
     */
    public EndTxnResult endTransaction(
            String transactionalId,
            long producerId,
            short producerEpoch,
            TransactionResult result,
            TransactionVersion clientVersion) {
        return ending.endTransaction(transactionalId, producerId, producerEpoch, result, clientVersion);
    }

    // Background work.

    private void abortTimedOutTransactions() {
        if (closed) {
            return;
        }
        for (TimedOutTransaction timedOut : manager.timedOutTransactions()) {
            try {
                Optional<CoordinatorEpochAndTxnMetadata> entry =
                        manager.getTransactionState(timedOut.transactionalId());
                if (entry.isEmpty()) {
                    continue;
                }
                EndTxnResult result = ending.fenceAndAbort(
                        timedOut.transactionalId(), entry.get(), timedOut.producerId(), timedOut.producerEpoch());
                LOG.log(
                        result.error() == Errors.NONE ? System.Logger.Level.INFO : System.Logger.Level.DEBUG,
                        "Rollback of the ongoing transaction of " + timedOut.transactionalId() + " after its timeout: "
                                + result.error());
            } catch (ApiException e) {
                LOG.log(
                        System.Logger.Level.DEBUG,
                        "Rollback of " + timedOut.transactionalId() + " skipped: " + e.getMessage());
            }
        }
    }

    private void removeExpiredTransactionalIds() {
        if (!closed) {
            manager.removeExpiredTransactionalIds();
        }
    }

    // Admin APIs.

    /**
     * WriteTxnMarkers of a partition leader (what {@code Admin.abortTransaction} sends): writes one marker, as the
     * coordinator writes its own; the partition's error.
     */
    public Errors writeTxnMarker(
            long producerId,
            short producerEpoch,
            TransactionResult result,
            int coordinatorEpoch,
            TransactionVersion transactionVersion,
            TopicPartition partition) {
        return markerWriter.write(
                new TransactionMarkerWriter.Markers(
                        "(WriteTxnMarkers)", producerId, producerEpoch, result, coordinatorEpoch, transactionVersion),
                partition);
    }

    /** DescribeTransactions of one transactional id. */
    public DescribeTransactionsResponseData.TransactionState describeTransaction(String transactionalId) {
        DescribeTransactionsResponseData.TransactionState state =
                new DescribeTransactionsResponseData.TransactionState().setTransactionalId(transactionalId);
        if (closed) {
            return state.setErrorCode(Errors.COORDINATOR_NOT_AVAILABLE.code());
        }
        if (transactionalId == null || transactionalId.isEmpty()) {
            return state.setErrorCode(Errors.INVALID_REQUEST.code());
        }
        try {
            Optional<CoordinatorEpochAndTxnMetadata> entry = manager.getTransactionState(transactionalId);
            if (entry.isEmpty()) {
                return state.setErrorCode(Errors.TRANSACTIONAL_ID_NOT_FOUND.code());
            }
            TransactionMetadata metadata = entry.get().metadata();
            synchronized (metadata) {
                if (metadata.state() == TransactionState.DEAD) {
                    return state.setErrorCode(Errors.TRANSACTIONAL_ID_NOT_FOUND.code());
                }
                for (TopicPartition partition : metadata.topicPartitions()) {
                    DescribeTransactionsResponseData.TopicData topicData =
                            state.topics().find(partition.topic());
                    if (topicData == null) {
                        topicData = new DescribeTransactionsResponseData.TopicData().setTopic(partition.topic());
                        state.topics().add(topicData);
                    }
                    topicData.partitions().add(partition.partition());
                }
                return state.setErrorCode(Errors.NONE.code())
                        .setProducerId(metadata.producerId())
                        .setProducerEpoch(metadata.producerEpoch())
                        .setTransactionState(metadata.state().stateName())
                        .setTransactionTimeoutMs(metadata.txnTimeoutMs())
                        .setTransactionStartTimeMs(metadata.txnStartTimestamp());
            }
        } catch (ApiException e) {
            return state.setErrorCode(Errors.forException(e).code());
        }
    }

    /** ListTransactions; see {@link TransactionStateManager#listTransactionStates}. */
    public ListTransactionsResponseData listTransactions(
            Set<Long> producerIds, Set<String> states, long durationMs, String transactionalIdPattern) {
        if (closed) {
            return new ListTransactionsResponseData().setErrorCode(Errors.COORDINATOR_NOT_AVAILABLE.code());
        }
        return manager.listTransactionStates(producerIds, states, durationMs, transactionalIdPattern);
    }

    private static IllegalStateException illegalState(String transactionalId, TransactionState state) {
        return new IllegalStateException("Found transactionalId " + transactionalId + " with state " + state
                + ". This is illegal as we should never have transitioned to this state.");
    }

    // Loading and unloading the partitions of __transaction_state this node leads.
    private final class Shard implements CoordinatorPartitions.Shard {

        // The transactions found being decided in a partition just read, completed once it is served.
        private final Map<Integer, Deciding> deciding = new ConcurrentHashMap<>();

        private record Deciding(int coordinatorEpoch, List<TransactionMetadata> transactions) {}

        @Override
        public long load(int partition, int leaderEpoch, UnifiedLog log) throws IOException {
            TransactionStateManager.Loaded loaded = manager.load(partition, leaderEpoch, log);
            deciding.put(partition, new Deciding(leaderEpoch, loaded.preparing()));
            return loaded.records();
        }

        @Override
        public void loaded(int partition) {
            Deciding found = deciding.remove(partition);
            if (found == null) {
                return;
            }
            for (TransactionMetadata metadata : found.transactions()) {
                TxnTransitMetadata completion;
                TransactionResult result;
                synchronized (metadata) {
                    result = metadata.state() == TransactionState.PREPARE_COMMIT
                            ? TransactionResult.COMMIT
                            : TransactionResult.ABORT;
                    completion = metadata.prepareComplete(time.millis());
                }
                LOG.log(
                        System.Logger.Level.INFO,
                        "Completing the " + result + " of " + metadata.transactionalId() + ", decided before "
                                + TransactionStateTopic.NAME + "-" + partition + " was loaded");
                completions.complete(
                        metadata.transactionalId(), found.coordinatorEpoch(), metadata, completion, result);
            }
        }

        @Override
        public void unload(int partition) {
            deciding.remove(partition);
            manager.unload(partition);
        }

        @Override
        public boolean isClosed() {
            return closed;
        }
    }

    /** Stops the timeouts, expiry and marker retries; requests get COORDINATOR_NOT_AVAILABLE or NOT_COORDINATOR. */
    @Override
    public synchronized void close() {
        closed = true;
        tasks.forEach(task -> task.cancel(false));
        tasks.clear();
    }
}
