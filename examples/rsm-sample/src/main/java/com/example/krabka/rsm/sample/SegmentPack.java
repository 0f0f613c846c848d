package com.example.krabka.rsm.sample;

import io.krabka.spi.storage.LogSegmentData;
import io.krabka.spi.storage.RemoteStorageException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Optional;

/**
 * The file that holds one remote segment: a header, then the segment's log and its indexes back to back.
 *
 * <pre>
 * magic    4 bytes   "KSP1" (Krabka sample pack, version 1)
 * lengths  6 longs   big-endian byte counts of the parts, in the order of {@link Part}; -1 for a part the
 *                    segment lacks (only the transaction index may be missing)
 * parts    the parts, in the order of {@link Part}, with nothing between them
 * </pre>
 *
 * A pack is whole when its size is the header's plus the parts' lengths; any other file is damaged, never read.
 */
final class SegmentPack {
    private static final int MAGIC = 0x4B53_5031;
    private static final long ABSENT = -1;
    static final int HEADER_BYTES = Integer.BYTES + Part.values().length * Long.BYTES;

    /** The parts of a pack. The order of the constants is the file format: never reorder them. */
    enum Part {
        LOG, OFFSET_INDEX, TIME_INDEX, PRODUCER_SNAPSHOT, LEADER_EPOCH, TRANSACTION_INDEX
    }

    private final long[] lengths;

    private SegmentPack(long[] lengths) {
        this.lengths = lengths;
    }

    /** Writes a segment's files into a new file {@code target} and forces it to disk. */
    static void write(LogSegmentData data, Path target) throws IOException {
        long[] lengths = new long[Part.values().length];
        try (FileChannel out = FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            out.position(HEADER_BYTES);
            lengths[Part.LOG.ordinal()] = append(data.logSegment(), out);
            lengths[Part.OFFSET_INDEX.ordinal()] = append(data.offsetIndex(), out);
            lengths[Part.TIME_INDEX.ordinal()] = append(data.timeIndex(), out);
            lengths[Part.PRODUCER_SNAPSHOT.ordinal()] = append(data.producerSnapshotIndex(), out);
            lengths[Part.LEADER_EPOCH.ordinal()] = append(data.leaderEpochIndex(), out);
            Optional<Path> transactionIndex = data.transactionIndex();
            lengths[Part.TRANSACTION_INDEX.ordinal()] = transactionIndex.isPresent() ? append(transactionIndex.get(), out) : ABSENT;
            ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES).putInt(MAGIC);
            for (long length : lengths) {
                header.putLong(length);
            }
            header.flip();
            while (header.hasRemaining()) {
                out.write(header, header.position());
            }
            out.force(true);
        }
    }

    /**
     * Reads and checks the header of the pack open in {@code in}.
     *
     * @throws RemoteStorageException if the file is not a whole pack
     */
    static SegmentPack read(FileChannel in, Path file) throws IOException, RemoteStorageException {
        ByteBuffer header = ByteBuffer.allocate(HEADER_BYTES);
        while (header.hasRemaining() && in.read(header, header.position()) >= 0) {
            // positional reads until the header is full or the file ends
        }
        if (header.hasRemaining() || header.flip().getInt() != MAGIC) {
            throw damaged(file, "it does not start with a pack header");
        }
        long[] lengths = new long[Part.values().length];
        long expectedSize = HEADER_BYTES;
        for (Part part : Part.values()) {
            long length = header.getLong();
            boolean valid = length >= 0 || (length == ABSENT && part == Part.TRANSACTION_INDEX);
            if (!valid) {
                throw damaged(file, "its header gives " + part + " a length of " + length);
            }
            lengths[part.ordinal()] = length;
            expectedSize += Math.max(length, 0);
        }
        long size = in.size();
        if (size != expectedSize) {
            throw damaged(file, "it has " + size + " bytes where its header promises " + expectedSize);
        }
        return new SegmentPack(lengths);
    }

    /** Whether the segment had this part. */
    boolean has(Part part) {
        return lengths[part.ordinal()] != ABSENT;
    }

    /** The part's size in bytes; 0 for a part the segment lacks. */
    long length(Part part) {
        return Math.max(lengths[part.ordinal()], 0);
    }

    /** Where the part starts in the file. */
    long offset(Part part) {
        long offset = HEADER_BYTES;
        for (int i = 0; i < part.ordinal(); i++) {
            offset += Math.max(lengths[i], 0);
        }
        return offset;
    }

    private static long append(Path source, FileChannel out) throws IOException {
        try (FileChannel in = FileChannel.open(source, StandardOpenOption.READ)) {
            long copied = 0;
            for (long n; (n = in.transferTo(copied, Long.MAX_VALUE, out)) > 0; ) {
                copied += n;
            }
            return copied;
        }
    }

    private static long append(ByteBuffer source, FileChannel out) throws IOException {
        long copied = 0;
        while (source.hasRemaining()) {
            copied += out.write(source);
        }
        return copied;
    }

    private static RemoteStorageException damaged(Path file, String why) {
        return new RemoteStorageException("the pack " + file + " is damaged: " + why);
    }
}
