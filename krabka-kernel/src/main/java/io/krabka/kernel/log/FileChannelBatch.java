package io.krabka.kernel.log;

import io.krabka.kernel.record.LogBatch;
import io.krabka.kernel.record.RecordBatch;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;

/**
 * One batch of a segment file known by its header, as Kafka's {@code FileChannelRecordBatch}: where it is, its
 * size and the header fields a scan needs, with the records left on disk until {@link #loadFullBatch()} reads
 * them (to check the CRC, walk the records, or build producer state). Readable while the file's channel is open.
 */
public final class FileChannelBatch {

    /** The bound on the decompressed bytes of a v0/v1 wrapper read only to learn its first offset. */
    private static final long LEGACY_BASE_OFFSET_BOUND = Integer.MAX_VALUE;

    private final FileChannel channel;
    private final String source;
    private final int position;
    private final int sizeInBytes;
    private final byte magic;
    private final long offsetField;
    private final long lastOffset;
    private final long maxTimestamp;
    private final int partitionLeaderEpoch;
    private final boolean compressedLegacy;

    FileChannelBatch(
            FileChannel channel,
            String source,
            int position,
            int sizeInBytes,
            byte magic,
            long offsetField,
            long lastOffset,
            long maxTimestamp,
            int partitionLeaderEpoch,
            boolean compressedLegacy) {
        this.channel = channel;
        this.source = source;
        this.position = position;
        this.sizeInBytes = sizeInBytes;
        this.magic = magic;
        this.offsetField = offsetField;
        this.lastOffset = lastOffset;
        this.maxTimestamp = maxTimestamp;
        this.partitionLeaderEpoch = partitionLeaderEpoch;
        this.compressedLegacy = compressedLegacy;
    }

    /** The batch's position in the file. */
    public int position() {
        return position;
    }

    /** Bytes in the batch, its offset and size fields included. */
    public int sizeInBytes() {
        return sizeInBytes;
    }

    /** The format version: 0, 1 or 2. */
    public byte magic() {
        return magic;
    }

    /**
     * The offset of the batch's first record. For a compressed v0/v1 wrapper, which stores only its last offset,
     * the inner messages are read to learn it, as Kafka does.
     *
     * @throws UncheckedIOException if the wrapper cannot be read
     */
    public long baseOffset() {
        if (!compressedLegacy) {
            return offsetField;
        }
        try {
            return loadFullBatch().records(LEGACY_BASE_OFFSET_BOUND).getFirst().offset();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The offset of the batch's last record. */
    public long lastOffset() {
        return lastOffset;
    }

    /** The offset after the batch's last record. */
    public long nextOffset() {
        return lastOffset + 1;
    }

    /** The batch's max timestamp; -1 for v0. */
    public long maxTimestamp() {
        return maxTimestamp;
    }

    /** The partition leader epoch of a v2 batch; {@link RecordBatch#NO_PARTITION_LEADER_EPOCH} for v0/v1. */
    public int partitionLeaderEpoch() {
        return partitionLeaderEpoch;
    }

    /**
     * Reads the whole batch into memory: a {@link RecordBatch} or a v0/v1 entry, naming the file and position in
     * its errors. Each call reads the file again.
     *
     * @throws java.io.EOFException if the file was truncated under the reader
     */
    public LogBatch loadFullBatch() throws IOException {
        return FileBatchCursor.load(channel, source, position, sizeInBytes);
    }

    @Override
    public String toString() {
        return "FileChannelBatch(" + source + " at byte " + position + ", magic=" + magic + ", offsets=[.., "
                + lastOffset + "], size=" + sizeInBytes + ")";
    }
}
