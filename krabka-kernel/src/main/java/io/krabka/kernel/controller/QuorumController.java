package io.krabka.kernel.controller;

import io.krabka.kernel.format.BootstrapCheckpoint;
import io.krabka.kernel.log.DiskFaults;
import io.krabka.kernel.log.LogDirFailureChannel;
import io.krabka.kernel.log.LogDirWriteStates;
import io.krabka.kernel.metadata.ConfigRecord;
import io.krabka.kernel.metadata.Feature;
import io.krabka.kernel.metadata.FeatureLevelRecord;
import io.krabka.kernel.metadata.MetadataBatch;
import io.krabka.kernel.metadata.MetadataDelta;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.MetadataPublisher;
import io.krabka.kernel.metadata.MetadataRecordAndVersion;
import io.krabka.kernel.metadata.ProducerIdsRecord;
import io.krabka.kernel.metadata.RetainedRecordType;
import io.krabka.kernel.scheduler.Scheduler;
import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.KafkaStorageException;
import org.apache.kafka.common.errors.PolicyViolationException;
import org.apache.kafka.common.errors.StaleBrokerEpochException;
import org.apache.kafka.common.errors.UnknownServerException;
import org.apache.kafka.common.message.AlterConfigsRequestData;
import org.apache.kafka.common.message.AlterConfigsResponseData;
import org.apache.kafka.common.message.AlterUserScramCredentialsRequestData;
import org.apache.kafka.common.message.AlterUserScramCredentialsResponseData;
import org.apache.kafka.common.message.CreatePartitionsRequestData;
import org.apache.kafka.common.message.CreatePartitionsResponseData.CreatePartitionsTopicResult;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.CreateTopicsResponseData;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.message.DeleteTopicsResponseData;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData;
import org.apache.kafka.common.message.IncrementalAlterConfigsResponseData;
import org.apache.kafka.server.authorizer.AclCreateResult;
import org.apache.kafka.server.authorizer.AclDeleteResult;

/**
 * The single-node controller: one thread runs every operation in turn, as Kafka's {@code QuorumController} runs
 * its event queue. An operation reads the current image, decides its records and answer; the records are appended
 * to the metadata log as one batch and flushed to disk, replayed into the next image, and published; only then
 * does the operation's future complete. At start the latest snapshot and the log after it are replayed, every
 * record type Kafka writes among them, and a log another controller left gets {@link StartupRecords}; a new log
 * first gets the feature levels of
 * the bootstrap checkpoint {@code krabka format} wrote (and, with eligible leader replicas, the cluster-wide
 * {@code min.insync.replicas} Kafka's controller records then).
 *
 * <p>An operation of more than Kafka's 10000 records is refused whole, as Kafka refuses it (POLICY_VIOLATION); a
 * batch of them stays well below the metadata log's batch bound. A failed append (a full disk) is undone by the log,
 * so the operation fails with KAFKA_STORAGE_ERROR and the next one may succeed once there is room again. A failed
 * flush leaves what is on disk unknown (the page cache cannot be trusted after it): the controller then refuses
 * every write until the broker restarts, as Kafka takes the directory offline.
 */
public final class QuorumController implements Controller, AutoCloseable {

    private static final System.Logger LOG = System.getLogger(QuorumController.class.getName());
    private static final String MIN_IN_SYNC_REPLICAS = "min.insync.replicas";
    /** Kafka's bound on the records of one operation ({@code QuorumController.MAX_RECORDS_PER_USER_OP}). */
    static final int MAX_RECORDS_PER_USER_OP = 10_000;

    private final ControllerConfig config;
    private final MetadataLog log;
    private final ExecutorService executor;
    private final ReplicationControl replication;
    private final ConfigurationControl configuration;
    private final List<MetadataPublisher> publishers = new ArrayList<>();
    private volatile MetadataImage image = MetadataImage.EMPTY;
    private volatile Throwable failure;
    private final LogDirWriteStates writeStates = new LogDirWriteStates("the metadata log");
    private final LogDirFailureChannel logDirFailureChannel;
    private volatile Thread controllerThread;

    private QuorumController(ControllerConfig config, MetadataLog log, LogDirFailureChannel logDirFailureChannel) {
        this.config = config;
        this.log = log;
        this.logDirFailureChannel = logDirFailureChannel;
        ThreadFactory threads =
                Thread.ofPlatform().name("quorum-controller-" + config.nodeId()).factory();
        this.executor = Executors.newSingleThreadExecutor(task -> {
            Thread thread = threads.newThread(task);
            controllerThread = thread;
            return thread;
        });
        TopicConfigValidator validator = new TopicConfigValidator(config);
        this.replication =
                new ReplicationControl(config, validator, new TopicConfigDescriber(config.staticBrokerConfigs()));
        this.configuration = new ConfigurationControl(config.nodeId(), validator);
    }

    /**
     * Opens the metadata log, replays it (bootstrapping a new one) and returns the running controller.
     *
     * @throws NoSuchFileException             if the log is new and the directory has no bootstrap checkpoint
     *                                         (it was not formatted)
     * @param logDirFailureChannel where a write or flush of the metadata log that leaves its files in a state not
     *                             known reports the metadata log's directory offline
     * @throws io.krabka.kernel.metadata.MetadataParseException if the log holds bytes that are not Krabka's records
     */
    public static QuorumController start(
            ControllerConfig config, Scheduler scheduler, InstantSource time, LogDirFailureChannel logDirFailureChannel)
            throws IOException {
        MetadataLog log = MetadataLog.open(config.metadataLogDir(), scheduler, time, logDirFailureChannel);
        try {
            if (log.endOffset() == 0) {
                log.append(bootstrapRecords(config));
                log.flush();
            }
            QuorumController controller = new QuorumController(config, log, logDirFailureChannel);
            MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
            long offset = -1;
            for (MetadataBatch batch : log.readAll()) {
                batch.records().forEach(record -> delta.replay(record.record()));
                offset = batch.lastOffset();
            }
            controller.image = delta.apply(offset);
            if (!delta.retained().isEmpty()) {
                LOG.log(
                        System.Logger.Level.INFO,
                        "The metadata log holds records Krabka keeps but does not serve: "
                                + retainedCounts(delta.retained()));
            }
            List<MetadataRecordAndVersion> startup =
                    StartupRecords.of(delta.inTransaction(), controller.image, config.nodeId());
            if (!startup.isEmpty()) {
                LOG.log(
                        System.Logger.Level.INFO,
                        "Taking over the metadata log at offset " + log.endOffset() + ": "
                                + startup.size() + " record(s) (an open metadata transaction aborted, leaderless "
                                + "partitions elected)");
                controller.commit(new ControllerResult<>(startup, startup.size()));
            }
            return controller;
        } catch (IOException | RuntimeException e) {
            log.close();
            throw e;
        }
    }

    // The bootstrap features (with the cluster min.insync.replicas), then the bootstrap SCRAM credentials and ACLs.
    private static List<MetadataRecordAndVersion> bootstrapRecords(ControllerConfig config) throws IOException {
        List<FeatureLevelRecord> features = new ArrayList<>();
        List<MetadataRecordAndVersion> others = new ArrayList<>();
        for (MetadataRecordAndVersion record : BootstrapCheckpoint.read(config.metadataLogDir())) {
            if (record.record() instanceof FeatureLevelRecord feature) {
                features.add(feature);
            } else {
                others.add(record);
            }
        }
        List<MetadataRecordAndVersion> records = new ArrayList<>(bootstrapRecords(
                features,
                config.staticBrokerConfigs()
                        .getOrDefault(MIN_IN_SYNC_REPLICAS, "1")
                        .trim()));
        records.addAll(others);
        return records;
    }

    /**
     * The first batch of a new metadata log: the bootstrap feature levels and, with eligible leader replicas, the
     * cluster-wide {@code min.insync.replicas} Kafka's controller records then. A restore starts its metadata log
     * with the same batch.
     */
    public static List<MetadataRecordAndVersion> bootstrapRecords(
            List<FeatureLevelRecord> features, String minInSyncReplicas) {
        List<MetadataRecordAndVersion> records = new ArrayList<>();
        boolean elr = false;
        for (FeatureLevelRecord feature : features) {
            records.add(new MetadataRecordAndVersion(feature, (short) 0));
            elr |= feature.name().equals(Feature.ELIGIBLE_LEADER_REPLICAS_VERSION.featureName())
                    && feature.featureLevel() >= 1;
        }
        if (elr) {
            records.add(new MetadataRecordAndVersion(
                    new ConfigRecord(ConfigRecord.BROKER, "", MIN_IN_SYNC_REPLICAS, minInSyncReplicas), (short) 0));
        }
        return records;
    }

    private static String retainedCounts(Map<RetainedRecordType, Integer> retained) {
        return new TreeMap<>(retained)
                .entrySet().stream()
                        .map(e -> e.getKey().recordName() + " " + e.getValue())
                        .collect(Collectors.joining(", "));
    }

    @Override
    public MetadataImage image() {
        return image;
    }

    /** {@inheritDoc} Also from a publisher, on the controller's thread: then at once. */
    @Override
    public void register(MetadataPublisher publisher) {
        Objects.requireNonNull(publisher, "publisher");
        Runnable registration = () -> {
            publishers.add(publisher);
            publisher.onMetadataUpdate(MetadataImage.EMPTY, image);
        };
        if (Thread.currentThread() == controllerThread) {
            registration.run();
            return;
        }
        try {
            executor.submit(registration).get();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted registering " + publisher.name(), e);
        } catch (ExecutionException e) {
            throw new IllegalStateException(
                    "publisher " + publisher.name() + " failed on the first image", e.getCause());
        }
    }

    @Override
    public CompletableFuture<CreateTopicsResponseData> createTopics(CreateTopicsRequestData request) {
        return write("createTopics", current -> replication.createTopics(current, request));
    }

    @Override
    public CompletableFuture<DeleteTopicsResponseData> deleteTopics(DeleteTopicsRequestData request) {
        return write("deleteTopics", current -> TopicDeletion.deleteTopics(current, request));
    }

    @Override
    public CompletableFuture<List<CreatePartitionsTopicResult>> createPartitions(CreatePartitionsRequestData request) {
        return write("createPartitions", current -> replication.createPartitions(current, request));
    }

    /**
     * Serves the configs of a resource type another part of the broker defines (BROKER, GROUP) with its checks;
     * until one is registered, changes to that type are refused.
     */
    public void registerConfigurationValidator(ConfigResource.Type type, ConfigurationValidator validator) {
        configuration.register(type, validator);
    }

    @Override
    public CompletableFuture<IncrementalAlterConfigsResponseData> incrementalAlterConfigs(
            IncrementalAlterConfigsRequestData request) {
        return write("incrementalAlterConfigs", current -> configuration.incrementalAlterConfigs(current, request));
    }

    @Override
    public CompletableFuture<AlterConfigsResponseData> legacyAlterConfigs(AlterConfigsRequestData request) {
        return write("legacyAlterConfigs", current -> configuration.legacyAlterConfigs(current, request));
    }

    @Override
    public CompletableFuture<List<AclCreateResult>> createAcls(List<AclBinding> acls) {
        return write("createAcls", current -> AclControl.createAcls(current, acls));
    }

    @Override
    public CompletableFuture<List<AclDeleteResult>> deleteAcls(List<AclBindingFilter> filters) {
        return write("deleteAcls", current -> AclControl.deleteAcls(current, filters));
    }

    @Override
    public CompletableFuture<AlterUserScramCredentialsResponseData> alterUserScramCredentials(
            AlterUserScramCredentialsRequestData request) {
        return write("alterUserScramCredentials", current -> ScramControl.alterUserScramCredentials(current, request));
    }

    /** Kafka's {@code ProducerIdControlManager}: the next block of 1000 ids, recorded before it is given. */
    @Override
    public CompletableFuture<ProducerIdsBlock> allocateProducerIds(int brokerId) {
        return write("allocateProducerIds", current -> {
            if (brokerId != config.nodeId()) {
                throw new StaleBrokerEpochException("No broker registration found for broker " + brokerId);
            }
            long first = current.nextProducerId();
            if (first > Long.MAX_VALUE - ProducerIdsBlock.PRODUCER_ID_BLOCK_SIZE) {
                throw new UnknownServerException("Exhausted all producerIds as the next block's end producerId has "
                        + "exceeded the int64 type limit");
            }
            ProducerIdsBlock block = new ProducerIdsBlock(brokerId, first, ProducerIdsBlock.PRODUCER_ID_BLOCK_SIZE);
            return new ControllerResult<>(
                    List.of(new MetadataRecordAndVersion(
                            new ProducerIdsRecord(brokerId, -1, block.nextBlockFirstId()), (short) 0)),
                    block);
        });
    }

    private <T> CompletableFuture<T> write(String name, Function<MetadataImage, ControllerResult<T>> operation) {
        CompletableFuture<T> future = new CompletableFuture<>();
        try {
            executor.execute(() -> {
                try {
                    future.complete(commit(operation.apply(image)));
                } catch (Throwable e) {
                    future.completeExceptionally(e);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            future.completeExceptionally(
                    new KafkaStorageException("The controller is shut down: " + name + " refused", e));
        }
        return future;
    }

    private <T> T commit(ControllerResult<T> result) {
        if (result.records().size() > MAX_RECORDS_PER_USER_OP) {
            throw new PolicyViolationException("Unable to perform excessively large batch operation.");
        }
        if (result.records().isEmpty()) {
            return result.response();
        }
        if (failure != null) {
            throw new KafkaStorageException(
                    "The metadata log's directory went offline after an I/O error, so what "
                            + "the log holds on disk is unknown; no write is possible until the broker restarts",
                    failure);
        }
        long offset;
        try {
            offset = log.append(result.records());
        } catch (IOException | RuntimeException e) {
            if (DiskFaults.takesLogDirOffline(e)) {
                failure = e;
                logDirFailureChannel.maybeAddOfflineLogDir(
                        config.metadataLogDir(),
                        "Error while writing to the " + "metadata log; the controller takes no more writes",
                        e);
            } else {
                // Out of room, and undone: nothing of it is in the log.
                writeStates.failed(config.metadataLogDir(), e);
            }
            throw new KafkaStorageException("Could not write to the metadata log: " + e.getMessage(), e);
        }
        writeStates.succeeded(config.metadataLogDir());
        try {
            log.flush();
        } catch (IOException | RuntimeException e) {
            failure = e;
            logDirFailureChannel.maybeAddOfflineLogDir(
                    config.metadataLogDir(),
                    "Could not flush the metadata log; " + "the controller takes no more writes",
                    e);
            throw new KafkaStorageException("Could not flush the metadata log: " + e.getMessage(), e);
        }
        MetadataDelta delta = new MetadataDelta(image);
        result.records().forEach(record -> delta.replay(record.record()));
        MetadataImage previous = image;
        image = delta.apply(offset);
        for (MetadataPublisher publisher : List.copyOf(publishers)) {
            try {
                publisher.onMetadataUpdate(previous, image);
            } catch (RuntimeException e) {
                LOG.log(
                        System.Logger.Level.ERROR,
                        "Publisher " + publisher.name() + " failed on the image at offset " + offset,
                        e);
            }
        }
        return result.response();
    }

    /** Finishes the operations queued, then closes the metadata log; a second call does nothing. */
    @Override
    public synchronized void close() throws IOException {
        if (executor.isShutdown()) {
            return;
        }
        executor.shutdown();
        try {
            if (!executor.awaitTermination(1, TimeUnit.MINUTES)) {
                executor.shutdownNow();
            }
        } catch (InterruptedException e) {
            executor.shutdownNow();
            Thread.currentThread().interrupt();
        }
        log.close();
    }
}
