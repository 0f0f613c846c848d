package io.krabka.plugin.rlmm.topic;

import io.krabka.rlmm.cache.RemoteLogMetadataCache;
import io.krabka.rlmm.cache.RemotePartitionMetadataStore;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.storage.RemoteLogMetadata;
import io.krabka.spi.storage.RemoteLogMetadataManager;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentMetadataUpdate;
import io.krabka.spi.storage.RemoteLogSegmentState;
import io.krabka.spi.storage.RemotePartitionDeleteMetadata;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import io.krabka.spi.storage.RemoteStorageException;
import java.io.IOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * A {@link RemoteLogMetadataManager} over the {@code __remote_log_metadata} topic, interchangeable with Kafka's
 * {@code TopicBasedRemoteLogMetadataManager}: the same topic, created the same way, the same partitioning of user
 * partitions over it, and the same record values, so that either broker reads what the other wrote.
 *
 * <p>A change is produced to the metadata partition of its user partition and is done once this manager's own
 * consumer has read it back and applied it to the cache, as in Kafka; lookups answer from that cache, which
 * answers as Kafka's {@code RemoteLogMetadataCache}. The consumer's position and the cache are written to a local
 * snapshot from time to time and on close, so a restart reads only the events after it.
 *
 * <p>{@link #configure} parses the settings and loads the snapshot; creating the topic and starting the clients
 * happen on a thread of their own, because the broker that serves the topic may be this broker, not yet serving.
 * Changes wait for that; a partition is {@link #isReady} once it is caught up.
 */
public final class TopicBasedRemoteLogMetadataManager implements RemoteLogMetadataManager {

    private static final System.Logger LOG = System.getLogger(TopicBasedRemoteLogMetadataManager.class.getName());
    private static final Duration PRODUCER_CLOSE_TIMEOUT = Duration.ofSeconds(30);

    private final RemotePartitionMetadataStore store = new RemotePartitionMetadataStore();
    private final AppliedEvents applied = new AppliedEvents();
    private final CompletableFuture<Clients> started = new CompletableFuture<>();
    private volatile TopicBasedRemoteLogMetadataManagerConfig config;
    private volatile MetadataConsumer consumer;
    private Thread starter;
    private boolean closed;

    /** A manager to be configured. */
    public TopicBasedRemoteLogMetadataManager() {}

    /** The clients that exist once the manager has started, and the thread reading the topic. */
    private record Clients(Producer<byte[], byte[]> producer, Thread reader) {}

    /**
     * Applies the settings, loads the local snapshot if there is a valid one, and starts connecting.
     *
     * @throws ConfigException       if a setting is invalid
     * @throws IllegalStateException if the manager is already configured
     */
    @Override
    public synchronized void configure(Map<String, ?> configs) {
        Objects.requireNonNull(configs, "configs");
        if (config != null) {
            throw new IllegalStateException("the remote log metadata manager is already configured");
        }
        TopicBasedRemoteLogMetadataManagerConfig parsed = TopicBasedRemoteLogMetadataManagerConfig.parse(configs);
        MetadataTopicPartitioner partitioner = new MetadataTopicPartitioner(parsed.topicPartitions());
        Map<Integer, Long> offsets = loadSnapshot(parsed);
        config = parsed;
        starter = Thread.ofPlatform()
                .daemon()
                .name("remote-log-metadata-start")
                .start(() -> start(parsed, partitioner, offsets));
    }

    private Map<Integer, Long> loadSnapshot(TopicBasedRemoteLogMetadataManagerConfig parsed) {
        try {
            Optional<LocalSnapshot> snapshot = LocalSnapshot.read(parsed.snapshot());
            if (snapshot.isPresent() && snapshot.get().metadataPartitions() == parsed.topicPartitions()) {
                store.restore(snapshot.get().cache());
                return snapshot.get().nextOffsets();
            }
            snapshot.ifPresent(s -> LOG.log(
                    System.Logger.Level.WARNING,
                    "ignoring the snapshot " + parsed.snapshot() + ": it is of " + s.metadataPartitions()
                            + " metadata partitions, not " + parsed.topicPartitions()));
        } catch (IOException e) {
            // The topic holds every event; the snapshot only saves reading them again.
            LOG.log(System.Logger.Level.WARNING, "ignoring the snapshot, reading the whole topic: " + e.getMessage());
        }
        return Map.of();
    }

    private void start(
            TopicBasedRemoteLogMetadataManagerConfig parsed,
            MetadataTopicPartitioner partitioner,
            Map<Integer, Long> offsets) {
        try {
            Map<String, Object> adminConfig = new HashMap<>(parsed.admin());
            adminConfig.put("client.id", parsed.clientIdPrefix() + "_admin");
            try (Admin admin = Admin.create(adminConfig)) {
                MetadataTopic.ensure(admin, parsed);
            }
            Map<String, Object> consumerConfig = new HashMap<>(parsed.consumer());
            consumerConfig.put(ConsumerConfig.CLIENT_ID_CONFIG, parsed.clientIdPrefix() + "_consumer");
            consumerConfig.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
            consumerConfig.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
            consumerConfig.put(ConsumerConfig.EXCLUDE_INTERNAL_TOPICS_CONFIG, false);
            consumerConfig.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
            consumerConfig.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
            Map<String, Object> producerConfig = new HashMap<>(parsed.producer());
            producerConfig.put(ProducerConfig.CLIENT_ID_CONFIG, parsed.clientIdPrefix() + "_producer");
            producerConfig.put(ProducerConfig.ACKS_CONFIG, "all");
            producerConfig.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true);
            producerConfig.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
            producerConfig.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
            MetadataConsumer reader = new MetadataConsumer(
                    new KafkaConsumer<>(consumerConfig),
                    store,
                    applied,
                    partitioner,
                    offsets,
                    parsed.snapshot(),
                    parsed.snapshotInterval());
            Producer<byte[], byte[]> producer = new KafkaProducer<>(producerConfig);
            synchronized (this) {
                if (closed) {
                    producer.close();
                    reader.finish();
                    return;
                }
                consumer = reader;
                started.complete(new Clients(
                        producer,
                        Thread.ofPlatform()
                                .daemon()
                                .name("remote-log-metadata-reader")
                                .start(reader)));
            }
        } catch (InterruptedException e) {
            started.completeExceptionally(new IllegalStateException("closed while starting"));
        } catch (RuntimeException e) {
            LOG.log(
                    System.Logger.Level.ERROR,
                    "the topic-based remote log metadata manager cannot start: " + e.getMessage(),
                    e);
            started.completeExceptionally(e);
        }
    }

    /** {@inheritDoc} Done once the event is read back from the topic. */
    @Override
    public CompletableFuture<Void> addRemoteLogSegmentMetadata(RemoteLogSegmentMetadata remoteLogSegmentMetadata) {
        Objects.requireNonNull(remoteLogSegmentMetadata, "remoteLogSegmentMetadata");
        if (remoteLogSegmentMetadata.state() != RemoteLogSegmentState.COPY_SEGMENT_STARTED) {
            throw new IllegalArgumentException(
                    "a segment is added in state COPY_SEGMENT_STARTED, not " + remoteLogSegmentMetadata.state());
        }
        return publish(remoteLogSegmentMetadata);
    }

    /** {@inheritDoc} Done once the event is read back; fails as the cache refused it, if it did. */
    @Override
    public CompletableFuture<Void> updateRemoteLogSegmentMetadata(RemoteLogSegmentMetadataUpdate update) {
        return publish(Objects.requireNonNull(update, "remoteLogSegmentMetadataUpdate"));
    }

    /** {@inheritDoc} Done once the event is read back; {@code DELETE_PARTITION_FINISHED} forgets the partition. */
    @Override
    public CompletableFuture<Void> putRemotePartitionDeleteMetadata(RemotePartitionDeleteMetadata step) {
        return publish(Objects.requireNonNull(step, "remotePartitionDeleteMetadata"));
    }

    private CompletableFuture<Void> publish(RemoteLogMetadata event) {
        TopicBasedRemoteLogMetadataManagerConfig settings = open();
        Clients clients;
        try {
            clients = started.get(settings.initRetryTimeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return CompletableFuture.failedFuture(new RemoteStorageException("interrupted while starting", e));
        } catch (Exception e) {
            return CompletableFuture.failedFuture(new RemoteStorageException(
                    "the remote log metadata manager did " + "not start: " + e.getMessage(), e));
        }
        int metadataPartition = consumer.consume(event.topicIdPartition());
        CompletableFuture<Long> sent = new CompletableFuture<>();
        clients.producer()
                .send(
                        new ProducerRecord<>(
                                TopicBasedRemoteLogMetadataManagerConfig.TOPIC,
                                metadataPartition,
                                null,
                                RemoteLogMetadataSerde.serialize(event)),
                        (metadata, failure) -> {
                            if (failure != null) {
                                sent.completeExceptionally(new RemoteStorageException(
                                        "writing to " + TopicBasedRemoteLogMetadataManagerConfig.TOPIC + " failed: "
                                                + failure,
                                        failure));
                            } else {
                                sent.complete(metadata.offset());
                            }
                        });
        long waitMs = settings.consumeWait().toMillis();
        return sent.thenCompose(offset ->
                        applied.whenApplied(metadataPartition, offset).orTimeout(waitMs, TimeUnit.MILLISECONDS))
                .exceptionallyCompose(failure -> CompletableFuture.failedFuture(
                        failure.getCause() instanceof TimeoutException || failure instanceof TimeoutException
                                ? new RemoteStorageException("the event was written but not read back within " + waitMs
                                        + " ms (" + TopicBasedRemoteLogMetadataManagerConfig.CONSUME_WAIT_MS + ")")
                                : unwrapped(failure)));
    }

    private static Throwable unwrapped(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }

    /** {@inheritDoc} @throws RemoteResourceNotFoundException if the partition is not known */
    @Override
    public Optional<RemoteLogSegmentMetadata> remoteLogSegmentMetadata(
            TopicIdPartition topicIdPartition, int epochForOffset, long offset) throws RemoteStorageException {
        return lookup(topicIdPartition, cache -> cache.remoteLogSegmentMetadata(epochForOffset, offset));
    }

    /** {@inheritDoc} @throws RemoteResourceNotFoundException if the partition is not known */
    @Override
    public Optional<Long> highestOffsetForEpoch(TopicIdPartition topicIdPartition, int leaderEpoch)
            throws RemoteStorageException {
        return lookup(topicIdPartition, cache -> cache.highestOffsetForEpoch(leaderEpoch));
    }

    /** {@inheritDoc} @throws RemoteResourceNotFoundException if the partition is not known */
    @Override
    public Iterator<RemoteLogSegmentMetadata> listRemoteLogSegments(TopicIdPartition topicIdPartition)
            throws RemoteStorageException {
        return lookup(topicIdPartition, RemoteLogMetadataCache::listAllRemoteLogSegments)
                .iterator();
    }

    /** {@inheritDoc} @throws RemoteResourceNotFoundException if the partition is not known */
    @Override
    public Iterator<RemoteLogSegmentMetadata> listRemoteLogSegments(TopicIdPartition topicIdPartition, int leaderEpoch)
            throws RemoteStorageException {
        return lookup(topicIdPartition, cache -> cache.listRemoteLogSegments(leaderEpoch))
                .iterator();
    }

    /** {@inheritDoc} @throws RemoteResourceNotFoundException if the partition is not known */
    @Override
    public long remoteLogSize(TopicIdPartition topicIdPartition, int leaderEpoch) throws RemoteStorageException {
        return lookup(
                topicIdPartition,
                cache -> cache.listRemoteLogSegments(leaderEpoch).stream()
                        .mapToLong(RemoteLogSegmentMetadata::segmentSizeInBytes)
                        .sum());
    }

    /** {@inheritDoc} As Kafka's cache (KIP-1058). @throws RemoteResourceNotFoundException if the partition is not known */
    @Override
    public Optional<RemoteLogSegmentMetadata> nextSegmentWithTxnIndex(
            TopicIdPartition topicIdPartition, int epoch, long offset) throws RemoteStorageException {
        return lookup(topicIdPartition, cache -> cache.nextSegmentWithTxnIndex(epoch, offset));
    }

    /** Reads the metadata partitions of these partitions, and makes the partitions known, as Kafka loads them. */
    @Override
    public void onPartitionLeadershipChanges(
            Set<TopicIdPartition> leaderPartitions, Set<TopicIdPartition> followerPartitions) {
        open();
        Set<TopicIdPartition> partitions = new HashSet<>(leaderPartitions);
        partitions.addAll(followerPartitions);
        store.loadPartitions(partitions);
        started.thenAccept(clients -> partitions.forEach(consumer::assign));
    }

    /** No longer tracks the partitions' readiness; their metadata stays in the cache and the snapshot. */
    @Override
    public void onStopPartitions(Set<TopicIdPartition> partitions) {
        Objects.requireNonNull(partitions, "partitions");
        open();
        started.thenAccept(clients -> partitions.forEach(consumer::unassign));
    }

    /** {@inheritDoc} True once the manager has started and read the partition's metadata partition up to its end. */
    @Override
    public boolean isReady(TopicIdPartition topicIdPartition) {
        MetadataConsumer reader = consumer;
        return reader != null && reader.isReady(topicIdPartition);
    }

    /** Stops the clients and writes the last snapshot; calling it again does nothing. */
    @Override
    public void close() throws IOException {
        Thread starting;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            starting = starter;
        }
        if (starting != null) {
            starting.interrupt();
        }
        // A start that failed, or that the interrupt ended, left no clients to stop.
        Clients clients = started.handle((done, failure) -> done).getNow(null);
        applied.failAll(new IllegalStateException("the remote log metadata manager is closed"));
        if (clients != null) {
            // Bounded, as Kafka's: the broker stops its listener before its services, so an event still unsent when
            // a single node shuts down is never delivered, and an unbounded close waits out delivery.timeout.ms
            // (two minutes). An event not sent is as one a crash lost: its copy never finished.
            clients.producer().close(PRODUCER_CLOSE_TIMEOUT);
            consumer.stop();
            try {
                clients.reader().join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            consumer.finish();
        }
        store.close();
    }

    private TopicBasedRemoteLogMetadataManagerConfig open() {
        TopicBasedRemoteLogMetadataManagerConfig settings = config;
        if (settings == null) {
            throw new IllegalStateException("the remote log metadata manager is not configured yet");
        }
        store.checkOpen();
        return settings;
    }

    private <T> T lookup(TopicIdPartition topicIdPartition, Function<RemoteLogMetadataCache, T> lookup)
            throws RemoteResourceNotFoundException {
        Objects.requireNonNull(topicIdPartition, "topicIdPartition");
        open();
        return store.read(topicIdPartition, lookup);
    }
}
