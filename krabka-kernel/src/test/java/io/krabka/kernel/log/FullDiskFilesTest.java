package io.krabka.kernel.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.log.checkpoint.OffsetCheckpointFile;
import io.krabka.spi.common.TopicPartition;
import io.krabka.testservers.SmallFileSystem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The files besides the segment on a real full disk, a small tmpfs: a file written whole (a checkpoint, a producer
 * snapshot) that finds no room leaves the file it was to replace as it was and no temporary; an entry of the
 * transaction index that finds no room is cut off again.
 */
class FullDiskFilesTest {

    @TempDir
    Path dir;

    private SmallFileSystem disk;

    @BeforeEach
    void mount() {
        disk = SmallFileSystem.mount(dir.resolve("disk"), 256 * 1024);
    }

    @AfterEach
    void unmount() {
        disk.close();
    }

    @Test
    void aCheckpointThatFindsNoRoomLeavesTheOldOne() throws IOException {
        OffsetCheckpointFile checkpoint =
                new OffsetCheckpointFile(disk.root().resolve("recovery-point-offset-checkpoint"));
        checkpoint.write(Map.of(new TopicPartition("orders", 0), 42L));
        byte[] before = Files.readAllBytes(checkpoint.file());
        disk.fill();

        Map<TopicPartition, Long> many = new HashMap<>();
        for (int p = 0; p < 20_000; p++) {
            many.put(new TopicPartition("orders", p), (long) p);
        }
        assertThrows(IOException.class, () -> checkpoint.write(many));

        assertArrayEquals(before, Files.readAllBytes(checkpoint.file()));
        assertEquals(Map.of(new TopicPartition("orders", 0), 42L), checkpoint.read());
        assertOnly(checkpoint.file());
    }

    @Test
    void aProducerSnapshotThatFindsNoRoomLeavesTheOldOne() throws IOException {
        Path snapshot = disk.root().resolve("00000000000000000100.snapshot");
        ProducerSnapshot.write(snapshot, List.of(entry(1)));
        byte[] before = Files.readAllBytes(snapshot);
        disk.fill();

        List<ProducerStateEntry> many = new ArrayList<>();
        for (long id = 0; id < 20_000; id++) {
            many.add(entry(id));
        }
        assertThrows(IOException.class, () -> ProducerSnapshot.write(snapshot, many));

        assertArrayEquals(before, Files.readAllBytes(snapshot));
        assertEquals(1, ProducerSnapshot.read(snapshot).size());
        assertOnly(snapshot);
    }

    @Test
    void aTransactionIndexEntryThatFindsNoRoomIsCutOffAgain() throws IOException {
        TransactionIndex index = new TransactionIndex(0, disk.root().resolve("00000000000000000000.txnindex"));
        // 120 entries are 4,080 bytes: the next one has 16 bytes of room in the file's first page, and no more.
        for (int n = 0; n < 120; n++) {
            index.append(new AbortedTxn(7, 10L * n, 10L * n + 5, 10L * n));
        }
        disk.fill();

        assertThrows(IOException.class, () -> index.append(new AbortedTxn(7, 1200, 1205, 1200)));

        assertEquals(120 * AbortedTxn.TOTAL_SIZE, Files.size(index.file()), "the torn entry is cut off");
        disk.free();
        index.append(new AbortedTxn(7, 1200, 1205, 1200));
        assertEquals(121, index.allAbortedTxns().size());
        assertEquals(new AbortedTxn(7, 1200, 1205, 1200), index.allAbortedTxns().getLast());
        index.close();
    }

    private static ProducerStateEntry entry(long producerId) {
        ProducerStateEntry entry =
                new ProducerStateEntry(producerId, (short) 0, -1, 1_700_000_000_000L, OptionalLong.empty());
        entry.addBatch((short) 0, 4, 99, 4, 1_700_000_000_000L);
        return entry;
    }

    private void assertOnly(Path file) throws IOException {
        try (Stream<Path> files = Files.list(disk.root())) {
            List<String> names = files.map(f -> f.getFileName().toString())
                    .filter(n -> !n.equals("filler"))
                    .toList();
            assertEquals(List.of(file.getFileName().toString()), names, "no temporary file is left");
        }
        assertTrue(Files.size(file) > 0);
    }
}
