package io.krabka.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.objectstore.SegmentObjectKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The restore benchmark's archive, read back with Kafka's own code: names of the layout, valid batches. */
class SyntheticArchiveTest {
    @TempDir
    Path dir;

    @Test
    void writesValidBatchesInSegmentsOfTheLayout() throws IOException {
        SyntheticArchive.Written written = new SyntheticArchive(4, 100_000, 1_000_000).write(dir);

        Path root = dir.resolve(SyntheticArchive.ROOT);
        List<Path> partitions;
        try (Stream<Path> listed = Files.list(root)) {
            partitions = listed.sorted().toList();
        }
        assertEquals(4, partitions.size());
        long logBytes = 0;
        int segments = 0;
        long records = 0;
        for (Path partition : partitions) {
            List<Path> logs;
            try (Stream<Path> listed = Files.list(partition)) {
                List<Path> files = listed.sorted().toList();
                assertEquals(0, files.size() % 5, "five files per segment: " + files);
                files.forEach(file -> assertTrue(
                        SegmentObjectKey.parse(partition.getFileName() + "/" + file.getFileName())
                                .isPresent(),
                        file.toString()));
                logs = files.stream()
                        .filter(file -> file.toString().endsWith(".log"))
                        .toList();
            }
            long next = 0;
            long timestamp = -1;
            for (Path log : logs) {
                assertTrue(log.getFileName().toString().startsWith(String.format("%020d-", next)), log.toString());
                assertTrue(Files.size(log) <= 100_000);
                try (FileRecords batches = FileRecords.open(log.toFile(), false)) {
                    for (RecordBatch batch : batches.batches()) {
                        batch.ensureValid();
                        assertEquals(RecordBatch.MAGIC_VALUE_V2, batch.magic());
                        assertEquals(next, batch.baseOffset());
                        assertEquals(0, batch.partitionLeaderEpoch());
                        assertTrue(batch.maxTimestamp() > timestamp);
                        timestamp = batch.maxTimestamp();
                        records += batch.countOrNull();
                        next = batch.lastOffset() + 1;
                    }
                }
                logBytes += Files.size(log);
                segments++;
            }
        }
        assertEquals(new SyntheticArchive.Written(logBytes, segments, records), written);
        assertTrue(logBytes > 900_000, "at most one batch short per partition: " + logBytes);
    }
}
