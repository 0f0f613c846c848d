package io.krabka.bench;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.LogSegmentData;
import io.krabka.spi.storage.RemoteLogSegmentId;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * A rolled segment's local files as a broker hands them to a copy: a {@code .log} of incompressible bytes (64 MiB
 * unless said otherwise), its offset and time indexes at one entry per 4 KiB, a producer snapshot and a leader-epoch
 * checkpoint.
 *
 * @param data     the files, as a copy receives them
 * @param files    every file the data names, the checkpoint's bytes being written to one too, for a plain copy
 * @param logBytes the size of the {@code .log}
 */
record SourceSegment(LogSegmentData data, Map<String, Path> files, int logBytes) {
    static final int LOG_BYTES = 64 << 20;
    private static final int BYTES_PER_ENTRY = 4096;
    private static final int BLOCK = 1 << 20;
    private static final TopicIdPartition PARTITION = new TopicIdPartition(Uuid.randomUuid(), "bench", 0);

    /** Checks the parts and freezes the map. */
    SourceSegment {
        Objects.requireNonNull(data, "data");
        files = Map.copyOf(files);
    }

    /** Writes the files of a 64 MiB segment into {@code directory}. */
    static SourceSegment write(Path directory) throws IOException {
        return write(directory, LOG_BYTES);
    }

    /** Writes the files of a segment whose {@code .log} has {@code logBytes} bytes into {@code directory}. */
    static SourceSegment write(Path directory, int logBytes) throws IOException {
        int entries = logBytes / BYTES_PER_ENTRY;
        SplittableRandom random = new SplittableRandom(405);
        String name = String.format("%020d", 0);
        byte[] epochs = "0\n1\n0 0\n".getBytes(StandardCharsets.US_ASCII);
        Map<String, Path> files = Map.of(
                ".log", write(directory.resolve(name + ".log"), random, logBytes),
                ".index", write(directory.resolve(name + ".index"), random, entries * 8),
                ".timeindex", write(directory.resolve(name + ".timeindex"), random, entries * 12),
                ".snapshot", write(directory.resolve(name + ".snapshot"), random, 2048),
                ".leader_epoch_checkpoint", Files.write(directory.resolve(name + ".leader_epoch_checkpoint"), epochs));
        LogSegmentData data = new LogSegmentData(
                files.get(".log"),
                files.get(".index"),
                files.get(".timeindex"),
                Optional.empty(),
                files.get(".snapshot"),
                ByteBuffer.wrap(epochs));
        return new SourceSegment(data, files, logBytes);
    }

    /** The metadata of a new copy of this segment: a fresh segment id each time. */
    RemoteLogSegmentMetadata newCopy() {
        return newCopy(0);
    }

    /**
     * The metadata of a new copy of this segment as the {@code index}-th of a partition's log, its offsets right
     * after the ones of the copy before it, so that a chain of such copies leaves no gap: a fresh segment id each time.
     */
    RemoteLogSegmentMetadata newCopy(int index) {
        long lastOffset = logBytes / BYTES_PER_ENTRY * 40L;
        long start = index * (lastOffset + 1);
        return new RemoteLogSegmentMetadata(
                RemoteLogSegmentId.generateNew(PARTITION),
                start,
                start + lastOffset,
                System.currentTimeMillis(),
                0,
                System.currentTimeMillis(),
                logBytes,
                new TreeMap<>(Map.of(0, start)),
                true);
    }

    /** Random bytes, written a block at a time so that a large segment takes no large heap. */
    private static Path write(Path file, SplittableRandom random, int size) throws IOException {
        byte[] block = new byte[Math.min(size, BLOCK)];
        try (OutputStream out = Files.newOutputStream(file)) {
            for (int left = size; left > 0; left -= block.length) {
                random.nextBytes(block);
                out.write(block, 0, Math.min(left, block.length));
            }
        }
        return file;
    }
}
