package io.krabka.plugin.rsm.s3;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.LogSegmentData;
import io.krabka.spi.storage.RemoteLogSegmentId;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;

/**
 * A segment's local files, the log of any size written in chunks (never held whole), and its metadata.
 *
 * @param metadata  the metadata a copy is given
 * @param data      the local files
 * @param logSha256 the SHA-256 of the log
 */
record TestSegment(RemoteLogSegmentMetadata metadata, LogSegmentData data, byte[] logSha256) {
    static final TopicIdPartition PARTITION = new TopicIdPartition(Uuid.randomUuid(), "s3.it", 0);

    /** Writes a segment of {@code logBytes} pseudo-random bytes of {@link #PARTITION} under {@code dir}. */
    static TestSegment write(Path dir, long logBytes) throws IOException {
        return write(dir, logBytes, PARTITION);
    }

    /** Writes a segment of {@code logBytes} pseudo-random bytes of {@code partition} under {@code dir}. */
    static TestSegment write(Path dir, long logBytes, TopicIdPartition partition) throws IOException {
        Files.createDirectories(dir);
        Uuid id = Uuid.randomUuid();
        String name = id.toString();
        MessageDigest sha = sha256();
        Random random = new Random(name.hashCode());
        Path log = dir.resolve(name + ".log");
        try (OutputStream out = Files.newOutputStream(log)) {
            byte[] chunk = new byte[1 << 16];
            for (long left = logBytes; left > 0; left -= chunk.length) {
                random.nextBytes(chunk);
                int n = (int) Math.min(chunk.length, left);
                out.write(chunk, 0, n);
                sha.update(chunk, 0, n);
            }
        }
        LogSegmentData data = new LogSegmentData(
                log,
                Files.write(dir.resolve(name + ".index"), new byte[80]),
                Files.write(dir.resolve(name + ".timeindex"), new byte[120]),
                Optional.of(Files.write(dir.resolve(name + ".txnindex"), new byte[34])),
                Files.write(dir.resolve(name + ".snapshot"), new byte[52]),
                ByteBuffer.wrap("0\n1\n0 0\n".getBytes(StandardCharsets.US_ASCII)));
        RemoteLogSegmentMetadata metadata = new RemoteLogSegmentMetadata(
                new RemoteLogSegmentId(partition, id),
                0,
                99,
                1_000L,
                0,
                2_000L,
                Math.toIntExact(logBytes),
                new TreeMap<>(Map.of(0, 0L)),
                false);
        return new TestSegment(metadata, data, sha.digest());
    }

    /** The SHA-256 of a stream, read to its end and closed. */
    static byte[] sha256(InputStream in) throws IOException {
        try (in) {
            MessageDigest sha = sha256();
            byte[] buffer = new byte[1 << 16];
            for (int n; (n = in.read(buffer)) >= 0; ) {
                sha.update(buffer, 0, n);
            }
            return sha.digest();
        }
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
