package io.krabka.plugin.rsm.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.storage.LogSegmentData;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A segment several times larger than the heap (the module's tests run with -Xmx64m) goes through copy and fetch:
 * only streaming can pass it.
 */
class LargeSegmentTest {
    private static final long SIZE = 200L * 1024 * 1024;
    private static final int CHUNK = 1024 * 1024;

    @TempDir
    Path dir;

    @TempDir
    Path local;

    @Test
    void copiesAndFetchesASegmentLargerThanTheHeap() throws Exception {
        assertTrue(
                Runtime.getRuntime().maxMemory() < SIZE / 2,
                "the test means nothing with a heap of " + Runtime.getRuntime().maxMemory() + " bytes");
        Path log = local.resolve("big.log");
        writeSparseish(log);
        Path index = Files.write(local.resolve("big.index"), new byte[8]);
        LogSegmentData data = new LogSegmentData(log, index, index, Optional.empty(), index, ByteBuffer.allocate(0));
        RemoteLogSegmentMetadata metadata = Segments.metadata(Segments.SEGMENT_ID, 0, SIZE);

        try (LocalRemoteStorageManager rsm = new LocalRemoteStorageManager()) {
            rsm.configure(Map.of("dir", dir.toString()));
            rsm.copyLogSegmentData(metadata, data);

            try (InputStream in = rsm.fetchLogSegment(metadata, 0)) {
                assertEquals(crc(log, 0, SIZE), crc(in));
            }
            int start = 3 * CHUNK - 17;
            int end = (int) SIZE - CHUNK / 2;
            try (InputStream in = rsm.fetchLogSegment(metadata, start, end)) {
                assertEquals(crc(log, start, end - start + 1L), crc(in));
            }
        }
    }

    /** Random data in every third mebibyte, holes elsewhere, written one chunk at a time. */
    private static void writeSparseish(Path file) throws IOException {
        Random random = new Random(7);
        byte[] chunk = new byte[CHUNK];
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            for (long position = 0; position < SIZE; position += 3L * CHUNK) {
                random.nextBytes(chunk);
                ByteBuffer buffer = ByteBuffer.wrap(chunk, 0, (int) Math.min(CHUNK, SIZE - position));
                while (buffer.hasRemaining()) {
                    out.write(buffer, position + buffer.position());
                }
            }
            out.write(ByteBuffer.wrap(new byte[] {42}), SIZE - 1);
        }
        assertEquals(SIZE, Files.size(file));
    }

    /** The checksum of a range of the source, read independently of the code under test. */
    private static long crc(Path file, long position, long length) throws IOException {
        CRC32C crc = new CRC32C();
        byte[] buffer = new byte[64 * 1024];
        try (InputStream in = Files.newInputStream(file)) {
            in.skipNBytes(position);
            for (long left = length; left > 0; ) {
                int read = in.read(buffer, 0, (int) Math.min(buffer.length, left));
                crc.update(buffer, 0, read);
                left -= read;
            }
        }
        return crc.getValue();
    }

    private static long crc(InputStream stream) throws IOException {
        CRC32C crc = new CRC32C();
        byte[] buffer = new byte[64 * 1024];
        try (InputStream in = stream) {
            for (int read = in.read(buffer); read != -1; read = in.read(buffer)) {
                crc.update(buffer, 0, read);
            }
        }
        return crc.getValue();
    }
}
