package io.krabka.plugin.rlmm.inmemory;

import java.io.Closeable;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.zip.CRC32C;

/**
 * The changes made since a snapshot was written, appended to {@code <snapshot>.journal} and forced one by one, so
 * that a change costs one small write and one force however large the snapshot is.
 *
 * <p>The file starts with a header naming the snapshot it follows (the SHA-256 of the snapshot file's bytes),
 * written whole by {@link AtomicFile}; then one record per change: its length, its CRC-32C, its bytes. A journal
 * whose header names other bytes than the snapshot's follows an older snapshot, which a compaction replaced by
 * one holding all its changes: it is ignored. A record cut short or damaged is where a crash stopped an append
 * that never returned: it and anything after it are ignored.
 */
final class ChangeJournal implements Closeable {

    private static final byte[] MAGIC = "KRABKA-RLMM-JOURNAL-1\n".getBytes(StandardCharsets.US_ASCII);
    private static final int DIGEST_BYTES = 32;
    private static final int HEADER_BYTES = MAGIC.length + DIGEST_BYTES;
    private static final int RECORD_OVERHEAD = 2 * Integer.BYTES;

    private final FileChannel channel;

    private ChangeJournal(FileChannel channel) {
        this.channel = channel;
    }

    /** The journal of a snapshot file: beside it. */
    static Path pathOf(Path snapshot) {
        return snapshot.resolveSibling(snapshot.getFileName() + ".journal");
    }

    /** Replaces {@code file} with an empty journal following the snapshot of {@code snapshotDigest}, to append to. */
    static ChangeJournal start(Path file, byte[] snapshotDigest) throws IOException {
        if (snapshotDigest.length != DIGEST_BYTES) {
            throw new IllegalArgumentException(
                    "a SHA-256 digest has " + DIGEST_BYTES + " bytes, not " + snapshotDigest.length);
        }
        AtomicFile.write(file, out -> {
            out.write(MAGIC);
            out.write(snapshotDigest);
        });
        return new ChangeJournal(FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND));
    }

    /**
     * The records of {@code file} in order, if it follows the snapshot of {@code snapshotDigest}; empty if there is
     * no such file or it follows another snapshot.
     *
     * @throws InvalidSnapshotException if the file is not a journal
     */
    static Optional<List<byte[]>> read(Path file, byte[] snapshotDigest) throws IOException {
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        ByteBuffer bytes = ByteBuffer.wrap(Files.readAllBytes(file));
        if (bytes.remaining() < HEADER_BYTES || !Arrays.equals(MAGIC, Arrays.copyOf(bytes.array(), MAGIC.length))) {
            throw new InvalidSnapshotException(file, "not a remote log metadata journal: no journal header");
        }
        byte[] digest = Arrays.copyOfRange(bytes.array(), MAGIC.length, HEADER_BYTES);
        if (!Arrays.equals(digest, snapshotDigest)) {
            return Optional.empty();
        }
        bytes.position(HEADER_BYTES);
        List<byte[]> records = new ArrayList<>();
        while (bytes.remaining() >= RECORD_OVERHEAD) {
            int length = bytes.getInt();
            int crc = bytes.getInt();
            if (length < 0 || length > bytes.remaining()) {
                break;
            }
            byte[] record = new byte[length];
            bytes.get(record);
            if (crc(record) != crc) {
                break;
            }
            records.add(record);
        }
        return Optional.of(records);
    }

    /** Appends a record and forces it to disk. */
    void append(byte[] record) throws IOException {
        ByteBuffer framed = ByteBuffer.allocate(RECORD_OVERHEAD + record.length)
                .putInt(record.length)
                .putInt(crc(record))
                .put(record)
                .flip();
        while (framed.hasRemaining()) {
            channel.write(framed);
        }
        // The data and the new length: a record is durable once this returns.
        channel.force(false);
    }

    /** The bytes of the journal so far. */
    long size() throws IOException {
        return channel.size();
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    private static int crc(byte[] record) {
        CRC32C crc = new CRC32C();
        crc.update(record);
        return (int) crc.getValue();
    }
}
