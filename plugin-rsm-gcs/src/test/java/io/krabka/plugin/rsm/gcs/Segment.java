package io.krabka.plugin.rsm.gcs;

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
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;

/** A segment's local files (a log of random bytes, small indexes) and its metadata, for tests and the benchmark. */
record Segment(RemoteLogSegmentMetadata metadata, LogSegmentData data) {
    private static final TopicIdPartition PARTITION = new TopicIdPartition(Uuid.randomUuid(), "tiered", 0);

    /** Writes a new segment's files under {@code dir}; the log has {@code logBytes} bytes, written in 1 MiB blocks. */
    static Segment write(Path dir, int logBytes) throws IOException {
        Uuid id = Uuid.randomUuid();
        Path log = dir.resolve(id + ".log");
        Random random = new Random(logBytes);
        byte[] block = new byte[1 << 20];
        try (OutputStream out = Files.newOutputStream(log)) {
            for (int left = logBytes; left > 0; left -= block.length) {
                random.nextBytes(block);
                out.write(block, 0, Math.min(left, block.length));
            }
        }
        LogSegmentData data = new LogSegmentData(
                log,
                Files.write(dir.resolve(id + ".index"), new byte[80]),
                Files.write(dir.resolve(id + ".timeindex"), new byte[120]),
                Optional.empty(),
                Files.write(dir.resolve(id + ".snapshot"), new byte[52]),
                ByteBuffer.wrap("0\n1\n0 0\n".getBytes(StandardCharsets.UTF_8)));
        RemoteLogSegmentMetadata metadata = new RemoteLogSegmentMetadata(
                new RemoteLogSegmentId(PARTITION, id),
                0,
                9,
                1_000L,
                0,
                2_000L,
                logBytes,
                new TreeMap<>(Map.of(0, 0L)),
                true);
        return new Segment(metadata, data);
    }
}
