package io.krabka.plugin.rlmm.topic;

import io.krabka.rlmm.cache.RemotePartitionMetadataStore;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.storage.RemoteLogMetadata;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentMetadataUpdate;
import io.krabka.spi.storage.RemotePartitionDeleteMetadata;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.kafka.clients.consumer.CloseOptions;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.InterruptException;

/**
 * The one thread that reads {@code __remote_log_metadata} and applies its events to the cache, as Kafka's
 * {@code ConsumerTask}: it reads the metadata partitions that hold the user partitions this broker leads or
 * follows (and those it writes to), each from where the local snapshot left it or else from the beginning, and a
 * user partition is ready once its metadata partition is read up to the end offset it had when the partition was
 * assigned. Unlike Kafka's, it applies the events of every user partition in the partitions it reads, so that
 * the snapshot is the whole state of those partitions and a newly assigned user partition needs no replay.
 */
final class MetadataConsumer implements Runnable {

    private static final System.Logger LOG = System.getLogger(MetadataConsumer.class.getName());
    private static final Duration POLL = Duration.ofMillis(100);

    private final Consumer<byte[], byte[]> consumer;
    private final RemotePartitionMetadataStore store;
    private final AppliedEvents applied;
    private final MetadataTopicPartitioner partitioner;
    private final Path snapshotFile;
    private final Duration snapshotInterval;
    private final Set<Integer> wanted = ConcurrentHashMap.newKeySet();
    // User partition to the offset of its metadata partition it is ready at; -1 until the consumer looked it up.
    private final Map<TopicIdPartition, Long> readyAt = new ConcurrentHashMap<>();
    // Consumer thread only, from here on.
    private final Map<Integer, Long> snapshotOffsets;
    private final Set<Integer> assigned = new HashSet<>();
    private boolean changed;
    private long lastSnapshotNanos = System.nanoTime();
    private volatile boolean closed;

    MetadataConsumer(
            Consumer<byte[], byte[]> consumer,
            RemotePartitionMetadataStore store,
            AppliedEvents applied,
            MetadataTopicPartitioner partitioner,
            Map<Integer, Long> snapshotOffsets,
            Path snapshotFile,
            Duration snapshotInterval) {
        this.consumer = consumer;
        this.store = store;
        this.applied = applied;
        this.partitioner = partitioner;
        this.snapshotOffsets = new HashMap<>(snapshotOffsets);
        this.snapshotFile = snapshotFile;
        this.snapshotInterval = snapshotInterval;
    }

    /** Makes the consumer read the metadata partition of {@code partition}, if it does not already. */
    int consume(TopicIdPartition partition) {
        int metadataPartition = partitioner.metadataPartition(partition);
        wanted.add(metadataPartition);
        return metadataPartition;
    }

    /** Reads the partition's events from now on, and tracks when it is caught up. */
    void assign(TopicIdPartition partition) {
        readyAt.putIfAbsent(partition, -1L);
        consume(partition);
    }

    /** Stops tracking the partition's readiness; its events are still applied. */
    void unassign(TopicIdPartition partition) {
        readyAt.remove(partition);
    }

    /** Whether the partition is assigned and its metadata partition read up to where it was when it was assigned. */
    boolean isReady(TopicIdPartition partition) {
        Long target = readyAt.get(partition);
        return target != null && target >= 0 && applied.nextOffset(partitioner.metadataPartition(partition)) >= target;
    }

    @Override
    public void run() {
        while (!closed) {
            try {
                if (!assigned.equals(wanted)) {
                    reassign();
                }
                if (assigned.isEmpty()) {
                    // No tiered partition yet: a consumer with nothing assigned refuses to poll.
                    pause();
                    continue;
                }
                lookUpTargets();
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                    apply(record);
                }
                if (changed && System.nanoTime() - lastSnapshotNanos >= snapshotInterval.toNanos()) {
                    writeSnapshot();
                }
            } catch (InterruptException e) {
                return;
            } catch (RuntimeException e) {
                // Kafka's task stops for good here; a broker that cannot read metadata serves nothing remote, so
                // this one keeps trying, as it would after a retriable error.
                LOG.log(System.Logger.Level.WARNING, "reading __remote_log_metadata failed; retrying: " + e, e);
                pause();
            }
        }
    }

    /** Stops the loop; call {@link #finish} once the thread running it has ended. */
    void stop() {
        closed = true;
    }

    /** Writes the last snapshot and closes the consumer; on the thread that ran the loop or after it. */
    void finish() {
        try {
            writeSnapshot();
        } finally {
            consumer.close(CloseOptions.timeout(Duration.ofSeconds(5)));
        }
    }

    private void reassign() {
        Set<Integer> now = Set.copyOf(wanted);
        consumer.assign(now.stream().map(MetadataConsumer::topicPartition).toList());
        for (int partition : now) {
            if (assigned.contains(partition)) {
                continue;
            }
            TopicPartition tp = topicPartition(partition);
            Long resume = snapshotOffsets.get(partition);
            if (resume != null) {
                consumer.seek(tp, resume);
            } else {
                consumer.seekToBeginning(List.of(tp));
            }
            applied.start(partition, consumer.position(tp));
        }
        assigned.clear();
        assigned.addAll(now);
    }

    private void lookUpTargets() {
        Map<TopicIdPartition, TopicPartition> unknown = new HashMap<>();
        readyAt.forEach((partition, target) -> {
            if (target < 0) {
                unknown.put(partition, topicPartition(partitioner.metadataPartition(partition)));
            }
        });
        if (unknown.isEmpty()) {
            return;
        }
        Map<TopicPartition, Long> ends = consumer.endOffsets(Set.copyOf(unknown.values()));
        unknown.forEach((partition, tp) -> readyAt.replace(partition, -1L, ends.get(tp)));
    }

    private void apply(ConsumerRecord<byte[], byte[]> record) {
        Exception refusal = null;
        try {
            RemoteLogMetadata event = RemoteLogMetadataSerde.deserialize(record.value());
            switch (event) {
                case RemoteLogSegmentMetadata segment -> store.addCopyInProgressSegment(segment);
                case RemoteLogSegmentMetadataUpdate update -> store.updateRemoteLogSegmentMetadata(update);
                case RemotePartitionDeleteMetadata delete -> store.putRemotePartitionDeleteMetadata(delete);
            }
        } catch (MetadataRecordException e) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "skipping __remote_log_metadata-" + record.partition() + " offset " + record.offset() + ": "
                            + e.getMessage());
        } catch (Exception e) {
            // As Kafka's cache, an event its lifecycle does not allow changes nothing; the write that sent it fails.
            refusal = e;
            LOG.log(
                    System.Logger.Level.DEBUG,
                    "event at __remote_log_metadata-" + record.partition() + " offset " + record.offset() + " refused: "
                            + e.getMessage());
        }
        applied.applied(record.partition(), record.offset(), refusal);
        changed = true;
    }

    private void writeSnapshot() {
        Map<Integer, Long> offsets = new HashMap<>(snapshotOffsets);
        for (int partition : assigned) {
            offsets.put(partition, applied.nextOffset(partition));
        }
        try {
            new LocalSnapshot(partitioner.metadataPartitions(), offsets, store.snapshot()).write(snapshotFile);
            changed = false;
            lastSnapshotNanos = System.nanoTime();
        } catch (IOException | RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "could not write the snapshot " + snapshotFile + ": " + e, e);
        }
    }

    private void pause() {
        try {
            Thread.sleep(POLL);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closed = true;
        }
    }

    private static TopicPartition topicPartition(int partition) {
        return new TopicPartition(TopicBasedRemoteLogMetadataManagerConfig.TOPIC, partition);
    }
}
