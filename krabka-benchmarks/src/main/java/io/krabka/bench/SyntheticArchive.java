package io.krabka.bench;

import io.krabka.objectstore.SegmentArtifact;
import io.krabka.objectstore.SegmentObjectKeys;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Locale;
import java.util.zip.CRC32C;

/**
 * An archive in Kafka's LocalTieredStorage layout, as {@code krabka restore --archive-local} reads it: {@code
 * <dir>/kafka-tiered-storage/<topic>-<partition>-<topic id>/<start offset, 20 digits>-<segment id>.<suffix>}, one
 * topic of {@code partitions} partitions of {@code totalBytes / partitions} of batches each, in segments of at most
 * {@code segmentBytes}, their offsets one after another.
 *
 * <p>The batches are a producer's ({@link ProducedBatch}, Kafka's own client code): 16 KiB of 1 KiB text-like
 * records, 15 to a batch, uncompressed in half the partitions, lz4 and zstd in a quarter each, as one producer
 * per partition would send them. Each is written with its offsets, a leader epoch of 0 and a timestamp one
 * millisecond after the batch before, its CRC-32C computed again over what changed, so the segments are what a
 * leader would have appended. Only the {@code .log} holds data: the restore rebuilds the indexes, producer state and
 * epochs from it and only requires the other files to exist, so they are small placeholders.
 *
 * @param partitions   how many partitions
 * @param segmentBytes the most bytes of batches in one segment
 * @param totalBytes   the bytes of batches over all partitions
 */
record SyntheticArchive(int partitions, long segmentBytes, long totalBytes) {
    static final String TOPIC = "restore-bench";
    /** Under the directory {@code --archive-local} names: the local plugin's key root. */
    static final String ROOT = "kafka-tiered-storage";

    private static final int BATCH_BYTES = 16 * 1024;
    private static final List<String> CODECS = List.of("none", "none", "lz4", "zstd");
    private static final int CHUNK = 4 << 20;
    private static final long FIRST_TIMESTAMP = 1_767_225_600_000L;
    // Kafka's DefaultRecordBatch layout.
    private static final int BASE_OFFSET = 0;
    private static final int PARTITION_LEADER_EPOCH = 12;
    private static final int CRC = 17;
    private static final int ATTRIBUTES = 21;
    private static final int BASE_TIMESTAMP = 27;
    private static final int MAX_TIMESTAMP = 35;
    private static final byte[] EPOCH_CHECKPOINT = "0\n1\n0 0\n".getBytes(StandardCharsets.US_ASCII);

    /** Checks the shape. */
    SyntheticArchive {
        if (partitions < 1 || segmentBytes < BATCH_BYTES || totalBytes < (long) partitions * BATCH_BYTES) {
            throw new IllegalArgumentException(
                    "an archive of " + partitions + " partitions, segments of " + segmentBytes + " bytes, " + totalBytes
                            + " bytes in all: too small for one 16 KiB batch per partition");
        }
    }

    /**
     * Writes an archive to look at or to restore by hand (for a profile, say): {@code java -cp <classpath>
     * io.krabka.bench.SyntheticArchive DIR [total MiB] [segment MiB] [partitions]}, by default 4096, 256 and 8.
     */
    public static void main(String[] args) throws IOException {
        if (args.length < 1 || args.length > 4) {
            System.err.println("usage: SyntheticArchive DIR [total MiB] [segment MiB] [partitions]");
            System.exit(2);
        }
        long mib = 1 << 20;
        SyntheticArchive shape = new SyntheticArchive(
                args.length > 3 ? Integer.parseInt(args[3]) : 8,
                (args.length > 2 ? Long.parseLong(args[2]) : 256) * mib,
                (args.length > 1 ? Long.parseLong(args[1]) : 4096) * mib);
        Written written = shape.write(Path.of(args[0]));
        System.out.printf(
                Locale.ROOT,
                "%d segments, %d bytes of .log, %d records%n",
                written.segments(),
                written.logBytes(),
                written.records());
    }

    /** What was written. */
    record Written(long logBytes, int segments, long records) {}

    /** Writes the archive under {@code dir}, which must not hold one already, and forces nothing (the caller syncs). */
    Written write(Path dir) throws IOException {
        Uuid topicId = Uuid.randomUuid();
        SegmentObjectKeys keys = new SegmentObjectKeys(ROOT);
        long logBytes = 0;
        int segments = 0;
        long records = 0;
        for (int partition = 0; partition < partitions; partition++) {
            ProducedBatch template =
                    ProducedBatch.of(BATCH_BYTES, CODECS.get(partition % CODECS.size()), FIRST_TIMESTAMP);
            Path partitionDir = Files.createDirectories(
                    dir.resolve(keys.partitionPrefix(new TopicIdPartition(topicId, TOPIC, partition))));
            PartitionCursor cursor = new PartitionCursor(template);
            long left = totalBytes / partitions;
            while (left >= template.size()) {
                long written = writeSegment(partitionDir, cursor, Math.min(left, segmentBytes));
                left -= written;
                logBytes += written;
                segments++;
            }
            records += cursor.offset;
        }
        return new Written(logBytes, segments, records);
    }

    /** Where a partition's batches are: the next offset and timestamp. */
    private static final class PartitionCursor {
        final ProducedBatch template;
        long offset;
        long timestamp = FIRST_TIMESTAMP;

        PartitionCursor(ProducedBatch template) {
            this.template = template;
        }
    }

    // Writes whole batches, at most `limit` bytes of them, as one segment; returns the bytes of its .log.
    private static long writeSegment(Path partitionDir, PartitionCursor cursor, long limit) throws IOException {
        String base = String.format("%020d", cursor.offset) + "-" + Uuid.randomUuid() + ".";
        byte[] batch = cursor.template.bytes();
        ByteBuffer chunk = ByteBuffer.allocate(CHUNK - CHUNK % batch.length);
        CRC32C crc = new CRC32C();
        long bytes = 0;
        try (FileChannel log = FileChannel.open(
                partitionDir.resolve(base + SegmentArtifact.SEGMENT.suffix()),
                StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE)) {
            while (bytes + batch.length <= limit) {
                int at = chunk.position();
                chunk.put(batch);
                chunk.putLong(at + BASE_OFFSET, cursor.offset);
                chunk.putInt(at + PARTITION_LEADER_EPOCH, 0);
                chunk.putLong(at + BASE_TIMESTAMP, cursor.timestamp);
                chunk.putLong(at + MAX_TIMESTAMP, cursor.timestamp);
                crc.reset();
                crc.update(chunk.array(), at + ATTRIBUTES, batch.length - ATTRIBUTES);
                chunk.putInt(at + CRC, (int) crc.getValue());
                cursor.offset += cursor.template.records();
                cursor.timestamp++;
                bytes += batch.length;
                if (!chunk.hasRemaining()) {
                    drain(log, chunk);
                }
            }
            drain(log, chunk);
        }
        for (SegmentArtifact artifact :
                List.of(SegmentArtifact.OFFSET_INDEX, SegmentArtifact.TIME_INDEX, SegmentArtifact.PRODUCER_SNAPSHOT)) {
            Files.write(partitionDir.resolve(base + artifact.suffix()), new byte[0]);
        }
        Files.write(partitionDir.resolve(base + SegmentArtifact.LEADER_EPOCH_CHECKPOINT.suffix()), EPOCH_CHECKPOINT);
        return bytes;
    }

    private static void drain(FileChannel channel, ByteBuffer chunk) throws IOException {
        chunk.flip();
        while (chunk.hasRemaining()) {
            channel.write(chunk);
        }
        chunk.clear();
    }
}
