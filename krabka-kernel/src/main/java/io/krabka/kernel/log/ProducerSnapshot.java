package io.krabka.kernel.log;

import io.krabka.kernel.log.checkpoint.AtomicFileWriter;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;
import java.util.zip.CRC32C;

/**
 * Kafka's producer state snapshot file format ({@code ProducerSnapshot} version 1), big-endian: int16 version,
 * uint32 CRC-32C of everything from byte {@value #PRODUCER_ENTRIES_OFFSET} to the end, int32 entry count, then
 * {@value #ENTRY_SIZE}-byte entries: producer id int64, epoch int16, last sequence int32, last offset int64, offset
 * delta int32, timestamp int64, coordinator epoch int32, first offset of the open transaction int64 (-1 if none).
 * An entry keeps only the producer's newest batch; a last offset of -1 means it has none.
 */
final class ProducerSnapshot {

    static final short PRODUCER_SNAPSHOT_VERSION = 1;
    static final int VERSION_OFFSET = 0;
    static final int CRC_OFFSET = VERSION_OFFSET + 2;
    static final int PRODUCER_ENTRIES_OFFSET = CRC_OFFSET + 4;
    static final int ENTRY_SIZE = 46;
    /** Appended to a snapshot file's name while it is being written. */
    static final String TEMP_SUFFIX = ".tmp";

    private static final int ENTRIES_START = PRODUCER_ENTRIES_OFFSET + 4;

    private ProducerSnapshot() {}

    /** The snapshot bytes of {@code entries}, in ascending producer id order. */
    static ByteBuffer encode(Collection<ProducerStateEntry> entries) {
        ByteBuffer buffer = ByteBuffer.allocate(ENTRIES_START + ENTRY_SIZE * entries.size());
        buffer.putShort(VERSION_OFFSET, PRODUCER_SNAPSHOT_VERSION);
        buffer.position(PRODUCER_ENTRIES_OFFSET);
        buffer.putInt(entries.size());
        entries.stream()
                .sorted(Comparator.comparingLong(ProducerStateEntry::producerId))
                .forEach(entry -> buffer.putLong(entry.producerId())
                        .putShort(entry.producerEpoch())
                        .putInt(entry.lastSeq())
                        .putLong(entry.lastDataOffset())
                        .putInt(entry.lastOffsetDelta())
                        .putLong(entry.lastTimestamp())
                        .putInt(entry.coordinatorEpoch())
                        .putLong(entry.currentTxnFirstOffset().orElse(-1L)));
        buffer.putInt(CRC_OFFSET, (int) crc(buffer));
        return buffer.rewind();
    }

    /**
     * The entries of snapshot bytes.
     *
     * @param bytes the whole file, from position to limit
     * @param file  the file they came from, for errors
     * @throws CorruptSnapshotException if the version is not 1, the CRC does not match, or the size is not that
     *                                  of the entry count, or an entry's offsets are out of range
     */
    static List<ProducerStateEntry> decode(ByteBuffer bytes, Path file) {
        ByteBuffer buffer = bytes.slice();
        if (buffer.remaining() < PRODUCER_ENTRIES_OFFSET) {
            throw new CorruptSnapshotException(
                    file, "truncated: " + buffer.remaining() + " bytes is too short for its header");
        }
        short version = buffer.getShort(VERSION_OFFSET);
        if (version != PRODUCER_SNAPSHOT_VERSION) {
            throw new CorruptSnapshotException(
                    file,
                    "unknown file version " + version + ", the only known version is " + PRODUCER_SNAPSHOT_VERSION);
        }
        long storedCrc = Integer.toUnsignedLong(buffer.getInt(CRC_OFFSET));
        long computedCrc = crc(buffer);
        if (storedCrc != computedCrc) {
            throw new CorruptSnapshotException(
                    file, "CRC is no longer valid: stored " + storedCrc + ", computed " + computedCrc);
        }
        if (buffer.remaining() < ENTRIES_START) {
            throw new CorruptSnapshotException(file, "truncated: " + buffer.remaining() + " bytes has no entry count");
        }
        int count = buffer.getInt(PRODUCER_ENTRIES_OFFSET);
        if (count < 0
                || (buffer.remaining() - ENTRIES_START) / ENTRY_SIZE != count
                || (buffer.remaining() - ENTRIES_START) % ENTRY_SIZE != 0) {
            throw new CorruptSnapshotException(
                    file, buffer.remaining() + " bytes do not hold the " + count + " entries the file states");
        }
        List<ProducerStateEntry> entries = new ArrayList<>(count);
        buffer.position(ENTRIES_START);
        for (int n = 0; n < count; n++) {
            entries.add(decodeEntry(buffer, file, ENTRIES_START + n * ENTRY_SIZE));
        }
        return entries;
    }

    private static ProducerStateEntry decodeEntry(ByteBuffer buffer, Path file, int at) {
        long producerId = buffer.getLong();
        short epoch = buffer.getShort();
        int lastSequence = buffer.getInt();
        long lastOffset = buffer.getLong();
        int offsetDelta = buffer.getInt();
        long timestamp = buffer.getLong();
        int coordinatorEpoch = buffer.getInt();
        long currentTxnFirstOffset = buffer.getLong();
        ProducerStateEntry entry = new ProducerStateEntry(
                producerId,
                epoch,
                coordinatorEpoch,
                timestamp,
                currentTxnFirstOffset >= 0 ? OptionalLong.of(currentTxnFirstOffset) : OptionalLong.empty());
        if (lastOffset >= 0) {
            if (offsetDelta < 0 || offsetDelta > lastOffset) {
                throw new CorruptSnapshotException(
                        file,
                        "entry at byte " + at + " of producer " + producerId + " has offset delta " + offsetDelta
                                + " out of range for last offset " + lastOffset);
            }
            entry.addBatch(epoch, lastSequence, lastOffset, offsetDelta, timestamp);
        }
        return entry;
    }

    private static long crc(ByteBuffer buffer) {
        CRC32C crc = new CRC32C();
        crc.update(buffer.slice(PRODUCER_ENTRIES_OFFSET, buffer.limit() - PRODUCER_ENTRIES_OFFSET));
        return crc.getValue();
    }

    /**
     * Reads a snapshot file.
     *
     * @throws CorruptSnapshotException if its bytes are not a snapshot Kafka could have written
     */
    static List<ProducerStateEntry> read(Path file) throws IOException {
        return decode(ByteBuffer.wrap(Files.readAllBytes(file)), file);
    }

    /**
     * Writes a snapshot file atomically: to a temporary file beside it, forced to disk, renamed over
     * {@code file}, and the directory forced, so that a crash leaves either no file or the whole file.
     */
    static void write(Path file, Collection<ProducerStateEntry> entries) throws IOException {
        write(file, entries, true);
    }

    /**
     * Writes a snapshot file through a temporary file renamed over {@code file}; with {@code sync}, the temporary
     * file and then the directory are forced to disk, as {@link #write(Path, Collection)} does. Without, a process
     * crash still leaves no file or the whole file, but a power loss before {@link #flush} may leave a file that
     * does not decode, which loading deletes as corrupt, falling back to an older snapshot.
     */
    static void write(Path file, Collection<ProducerStateEntry> entries, boolean sync) throws IOException {
        AtomicFileWriter.write(file, temporaryFile(file), encode(entries), sync);
    }

    /**
     * Forces a snapshot written without sync, and its directory, to disk; nothing if it was deleted meanwhile (by
     * retention or truncation).
     */
    static void flush(Path file) throws IOException {
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.READ)) {
            Fsync.force(channel, file);
        } catch (NoSuchFileException e) {
            return;
        }
        forceDirectory(file);
    }

    private static void forceDirectory(Path file) throws IOException {
        Fsync.forceDirectory(file.toAbsolutePath().getParent());
    }

    /** Where {@link #write} puts the bytes before the rename; left behind only by a crash. */
    static Path temporaryFile(Path file) {
        return file.resolveSibling(file.getFileName() + TEMP_SUFFIX);
    }
}
