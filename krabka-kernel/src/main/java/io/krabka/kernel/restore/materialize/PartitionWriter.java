package io.krabka.kernel.restore.materialize;

import io.krabka.kernel.log.LeaderEpochFileCache;
import io.krabka.kernel.log.LogFileUtils;
import io.krabka.kernel.log.LogSegment;
import io.krabka.kernel.log.ProducerStateManager;
import io.krabka.kernel.log.ProducerStateManagerConfig;
import io.krabka.kernel.log.SegmentConfig;
import io.krabka.kernel.log.checkpoint.LeaderEpochCheckpointFile;
import io.krabka.kernel.log.checkpoint.PartitionMetadataFile;
import io.krabka.kernel.log.config.LogConfig;
import io.krabka.spi.common.TopicPartition;
import io.krabka.spi.common.Uuid;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * Writes one partition's directory, segment by segment, in Kafka's format: each {@code .log} from the batches
 * handed to it, then its offset, time and transaction indexes rebuilt from those bytes by the log engine's segment
 * recovery (so they are the ones Kafka's recovery would build), the leader-epoch checkpoint from the batches'
 * epochs, a producer-state snapshot at the end of each segment (as Kafka takes one at each roll), and the
 * {@code partition.metadata} with the topic id.
 *
 * <p>A segment is committed only whole: until {@link #commitSegment} the current one can be abandoned, which
 * removes its file; nothing else has seen it.
 */
public final class PartitionWriter {
    // Kafka's transaction.max.timeout.ms default; it only matters to a broker's late-transaction check.
    private static final int MAX_TRANSACTION_TIMEOUT_MS = 900_000;

    private final Path dir;
    private final TopicPartition partition;
    private final InstantSource time;
    private final LogConfig config = LogConfig.fromProps(Map.of(), Map.of());
    private final LeaderEpochFileCache epochs;
    private final ProducerStateManager producers;
    private SegmentFile current;
    private long currentBase = -1;
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
        this.epochs = new LeaderEpochFileCache(partition, new LeaderEpochCheckpointFile(LeaderEpochCheckpointFile.newFile(dir)));
        this.producers = new ProducerStateManager(partition, dir, MAX_TRANSACTION_TIMEOUT_MS,
                ProducerStateManagerConfig.defaults());
    }

    /** The partition's directory. */
    public Path dir() {
        return dir;
    }

    /**
     * Starts the segment at {@code baseOffset}.
     *
     * @throws IllegalStateException if a segment is open, or {@code baseOffset} is below what is written
     */
    public void openSegment(long baseOffset) throws IOException {
        if (current != null) {
            throw new IllegalStateException("segment " + currentBase + " of " + partition + " is still open");
        }
        if (baseOffset < nextOffset) {
            throw new IllegalStateException("segment " + baseOffset + " of " + partition + " starts below offset "
                    + nextOffset + ", which is written already");
        }
        current = new SegmentFile(LogFileUtils.logFile(dir, baseOffset, ""));
        currentBase = baseOffset;
    }

    /** Appends one whole batch to the open segment. */
    public void append(ByteBuffer batch) throws IOException {
        current.append(batch);
    }

    /** The bytes of the open segment so far. */
    public long segmentSize() {
        return current.size();
    }

    /**
     * Finishes the open segment: forces its {@code .log}, builds its indexes, epochs and producer state from it,
     * and takes the producer snapshot at its end.
     *
     * @param endOffset the offset after the last one it claims
     */
    public void commitSegment(long endOffset) throws IOException {
        current.force();
        current.close();
        long size = current.size();
        current = null;
        int maxIndexSize = maxIndexSize(size);
        LogSegment segment = LogSegment.open(dir, currentBase, new SegmentConfig(maxIndexSize,
                config.indexIntervalBytes(), 0), time, true, 0, false, "");
        try {
            int truncated = segment.recover(producers, epochs);
            if (truncated > 0) {
                // Every batch passed the verify stage before it was written, so this is a bug, not bad input.
                throw new IOException("rebuilding the indexes of " + segment.log().file() + " cut " + truncated
                        + " bytes that were verified");
            }
            segment.flush();
        } finally {
            segment.close();
        }
        producers.updateMapEndOffset(endOffset);
        producers.takeSnapshot();
        if (logStartOffset.isEmpty()) {
            logStartOffset = OptionalLong.of(currentBase);
        }
        nextOffset = endOffset;
        currentBase = -1;
        segments++;
    }

    /**
     * Drops the open segment and its file. The leader epochs and producer state are untouched: only a commit
     * reads a segment into them.
     */
    public void abandonSegment() throws IOException {
        if (current == null) {
            return;
        }
        current.close();
        Files.deleteIfExists(current.path());
        current = null;
        currentBase = -1;
    }

    /** Whether a segment is open. */
    public boolean hasOpenSegment() {
        return current != null;
    }

    /** The segments committed. */
    public int segments() {
        return segments;
    }

    /**
     * Closes the partition: writes its {@code partition.metadata} and says what it holds.
     *
     * @param topicId the topic's id, written to {@code partition.metadata}
     * @throws IllegalStateException if a segment is still open
     */
    public WrittenPartition finish(Uuid topicId) throws IOException {
        if (current != null) {
            throw new IllegalStateException("segment " + currentBase + " of " + partition + " is still open");
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
