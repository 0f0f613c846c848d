package io.krabka.kernel.restore.materialize;

import io.krabka.kernel.log.BatchReplay;
import io.krabka.kernel.log.LeaderEpochFileCache;
import io.krabka.kernel.log.LogSegment;
import io.krabka.kernel.log.ProducerStateManager;
import io.krabka.kernel.log.ProducerStateManagerConfig;
import io.krabka.kernel.log.SegmentConfig;
import io.krabka.kernel.log.checkpoint.LeaderEpochCheckpointFile;
import io.krabka.kernel.log.checkpoint.PartitionMetadataFile;
import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.record.LogBatch;
import io.krabka.kernel.record.MemoryRecords;
import io.krabka.kernel.record.RecordBatch;
import io.krabka.spi.common.TopicPartition;
import io.krabka.spi.common.Uuid;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Writes one partition's directory, segment by segment, in Kafka's format, from batches handed to it once: each
 * {@code .log} is appended through the log engine's segment, which builds the offset and time indexes as Kafka's
 * append does, while each batch is replayed into the leader epochs (the {@code leader-epoch-checkpoint}) and the
 * producer state, whose aborted transactions go to the transaction index, as Kafka's recovery replays them; a
 * producer snapshot is taken at the end of each segment, as Kafka takes one at each roll; the topic id goes to
 * {@code partition.metadata}. Batches are gathered and appended a megabyte at a time. Nothing is forced to disk
 * here: the restore forces every file once the partitions are written, before any is moved into place.
 *
 * <p>A segment is committed only whole: until {@link #commitSegment} the open one can be abandoned, which removes
 * its files and puts the leader epochs and producer state back where the last committed segment left them.
 */
public final class PartitionWriter {
    // Kafka's transaction.max.timeout.ms default; it only matters to a broker's late-transaction check.
    private static final int MAX_TRANSACTION_TIMEOUT_MS = 900_000;
    private static final int BUFFER_SIZE = 1 << 20;

    private final Path dir;
    private final TopicPartition partition;
    private final InstantSource time;
    private final LogConfig config = LogConfig.fromProps(Map.of(), Map.of());
    private final LeaderEpochFileCache epochs;
    private final ProducerStateManager producers;
    private final ByteBuffer pending = ByteBuffer.allocateDirect(BUFFER_SIZE);
    private LogSegment current;
    private BatchReplay replay;
    private long pendingLastOffset = -1;
    private long nextOffset = -1;
    private OptionalLong logStartOffset = OptionalLong.empty();
    private int segments;

    /**
     * A writer of {@code partition} into {@code dir}, which must not exist yet.
     *
     * @throws IOException if the directory cannot be made
     */
    public PartitionWriter(Path dir, TopicPartition partition, InstantSource time) throws IOException {
        this.dir = Files.createDirectory(dir);
        this.partition = partition;
        this.time = time;
        this.epochs = new LeaderEpochFileCache(
                partition, new LeaderEpochCheckpointFile(LeaderEpochCheckpointFile.newFile(dir)));
        this.producers = new ProducerStateManager(
                partition, dir, MAX_TRANSACTION_TIMEOUT_MS, ProducerStateManagerConfig.defaults());
    }

    /** The partition's directory. */
    public Path dir() {
        return dir;
    }

    /**
     * Starts the segment at {@code baseOffset}.
     *
     * @param expectedSize about how many bytes it will hold, for the size of its indexes
     * @throws IllegalStateException if a segment is open, or {@code baseOffset} is below what is written
     */
    public void openSegment(long baseOffset, long expectedSize) throws IOException {
        if (current != null) {
            throw new IllegalStateException("segment " + current.baseOffset() + " of " + partition + " is still open");
        }
        if (baseOffset < nextOffset) {
            throw new IllegalStateException("segment " + baseOffset + " of " + partition + " starts below offset "
                    + nextOffset + ", which is written already");
        }
        current = LogSegment.open(
                dir,
                baseOffset,
                new SegmentConfig(maxIndexSize(expectedSize), config.indexIntervalBytes(), 0),
                time,
                false,
                0,
                false,
                "");
        replay = new BatchReplay(current, producers, epochs);
    }

    /** Appends one whole magic 2 batch, from its position to its limit, to the open segment. */
    public void append(ByteBuffer batch) throws IOException {
        if (batch.remaining() > pending.remaining()) {
            drain();
        }
        if (batch.remaining() > pending.capacity()) {
            ByteBuffer copy = ByteBuffer.allocate(batch.remaining())
                    .put(batch.duplicate())
                    .flip();
            write(
                    copy,
                    RecordBatch.at(copy, 0, partition.toString(), current.size())
                            .lastOffset());
        } else {
            pending.put(batch.duplicate());
            pendingLastOffset = RecordBatch.at(batch, batch.position(), partition.toString(), 0)
                    .lastOffset();
        }
    }

    private void drain() throws IOException {
        if (pending.position() > 0) {
            write(pending.flip(), pendingLastOffset);
            pending.clear();
        }
    }

    // Appends whole batches, then replays each of them.
    private void write(ByteBuffer batches, long lastOffset) throws IOException {
        MemoryRecords records =
                MemoryRecords.readableRecords(batches, current.log().file().toString(), current.size());
        current.append(lastOffset, records);
        for (LogBatch batch : records) {
            replay.replay((RecordBatch) batch);
        }
    }

    /**
     * Finishes the open segment: its last batches appended, its time index given the largest timestamp, its files
     * trimmed, and the producer snapshot taken at its end.
     *
     * @param endOffset the offset after the last one it claims
     */
    public void commitSegment(long endOffset) throws IOException {
        drain();
        long baseOffset = current.baseOffset();
        current.onBecomeInactiveSegment();
        current.close();
        current = null;
        producers.updateMapEndOffset(endOffset);
        producers.takeSnapshot(false);
        if (logStartOffset.isEmpty()) {
            logStartOffset = OptionalLong.of(baseOffset);
        }
        nextOffset = endOffset;
        segments++;
    }

    /**
     * Drops the open segment and its files, and puts the leader epochs and the producer state back to the end of
     * the last committed segment (its snapshot).
     */
    public void abandonSegment() throws IOException {
        if (current == null) {
            return;
        }
        long baseOffset = current.baseOffset();
        pending.clear();
        current.close();
        current.deleteIfExists();
        current = null;
        epochs.truncateFromEnd(baseOffset);
        producers.truncateAndReload(logStartOffset.orElse(baseOffset), baseOffset, time.millis());
    }

    /** The segments committed. */
    public int segments() {
        return segments;
    }

    /**
     * Closes the partition: writes its {@code partition.metadata}, if it has a topic id, and says what it holds.
     *
     * @param topicId the topic's id, or null for the metadata log, which has none on disk
     * @throws IllegalStateException if a segment is still open
     */
    public WrittenPartition finish(Uuid topicId) throws IOException {
        if (current != null) {
            throw new IllegalStateException("segment " + current.baseOffset() + " of " + partition + " is still open");
        }
        if (topicId != null) {
            new PartitionMetadataFile(PartitionMetadataFile.newFile(dir)).write(topicId);
        }
        OptionalInt epoch = epochs.latestEpoch();
        return new WrittenPartition(partition, dir, logStartOffset.orElse(0), Math.max(nextOffset, 0), epoch);
    }

    // An index big enough for one entry per index interval of the segment: archived segments can exceed the
    // default segment.index.bytes' reach, and the index is trimmed to its entries once built.
    private int maxIndexSize(long segmentSize) {
        long needed = (segmentSize / Math.max(1, config.indexIntervalBytes()) + 2) * 12;
        return (int) Math.min(Integer.MAX_VALUE - 11, Math.max(config.segmentIndexBytes(), needed));
    }
}
