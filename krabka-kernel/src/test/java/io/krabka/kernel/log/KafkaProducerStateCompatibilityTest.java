package io.krabka.kernel.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Random;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Krabka's producer state judged by Kafka 4.4's own {@code ProducerStateManager}: the same operations give the same
 * outcomes and state, the same state gives byte-identical snapshot files, and each reads the other's snapshots.
 */
class KafkaProducerStateCompatibilityTest {

    private static final int EXPIRATION_MS = 600_000;

    @TempDir
    Path krabkaDir;

    @TempDir
    Path kafkaDir;

    private KrabkaPartitionState krabka;
    private KafkaPartitionState kafka;
    private long now = 1_700_000_000_000L;

    @BeforeEach
    void setUp() throws IOException {
        krabka = new KrabkaPartitionState(krabkaDir, EXPIRATION_MS);
        kafka = new KafkaPartitionState(kafkaDir, EXPIRATION_MS);
    }

    /** Runs an operation on both and requires the same outcome and the same state after it. */
    private String both(String step, Function<PartitionStateUnderTest, String> operation) {
        String expected = operation.apply(kafka);
        assertEquals(expected, operation.apply(krabka), step);
        assertEquals(kafka.state(), krabka.state(), step);
        return expected;
    }

    private String data(
            long pid,
            short epoch,
            int firstSeq,
            int lastSeq,
            long firstOffset,
            long lastOffset,
            boolean txn,
            AppendOrigin origin) {
        return both(
                "data " + pid + " epoch " + epoch + " seq " + firstSeq + ".." + lastSeq + " at " + firstOffset,
                s -> s.appendData(pid, epoch, firstSeq, lastSeq, firstOffset, lastOffset, now, txn, origin));
    }

    private String marker(
            long pid, short epoch, boolean abort, int coordinatorEpoch, long offset, short tv, AppendOrigin origin) {
        return both(
                "marker " + pid + " epoch " + epoch + " tv " + tv + " at " + offset,
                s -> s.appendMarker(pid, epoch, abort, coordinatorEpoch, offset, now, tv, origin));
    }

    /** Producers in every kind of state: with five batches, an open and a committed transaction, only a marker. */
    private void buildVariedState() {
        for (int n = 0; n < 6; n++) {
            data(1, (short) 0, 3 * n, 3 * n + 2, 3L * n, 3L * n + 2, false, AppendOrigin.CLIENT);
        }
        data(2, (short) 3, 0, 0, 18, 18, true, AppendOrigin.CLIENT);
        data(2, (short) 3, 1, 4, 19, 22, true, AppendOrigin.CLIENT);
        data(3, (short) 1, 0, 0, 23, 23, true, AppendOrigin.CLIENT);
        marker(3, (short) 1, false, 4, 24, (short) 0, AppendOrigin.COORDINATOR);
        marker(4, (short) 7, true, 2, 25, (short) 0, AppendOrigin.COORDINATOR);
        data(5, (short) 9, Integer.MAX_VALUE - 1, 0, 26, 27, false, AppendOrigin.REPLICATION);
        now += 1234;
        data(5, (short) 9, 1, 1, 28, 28, false, AppendOrigin.CLIENT);
        data(6, (short) 2, 0, 1, 29, 30, true, AppendOrigin.CLIENT);
        marker(6, (short) 3, true, 0, 31, (short) 2, AppendOrigin.COORDINATOR);
        data(
                7,
                (short) 0,
                ProducerBatch.NO_SEQUENCE,
                ProducerBatch.NO_SEQUENCE,
                32,
                32,
                true,
                AppendOrigin.COORDINATOR);
    }

    @Test
    void snapshotsOfTheSameStateAreTheSameBytes() throws IOException {
        buildVariedState();
        Path kafkaFile = kafka.takeSnapshot().orElseThrow();
        Path krabkaFile = krabka.takeSnapshot().orElseThrow();
        assertEquals("00000000000000000033.snapshot", kafkaFile.getFileName().toString());
        assertEquals(kafkaFile.getFileName(), krabkaFile.getFileName());
        assertArrayEquals(Files.readAllBytes(kafkaFile), Files.readAllBytes(krabkaFile));
    }

    @Test
    void kafkasSnapshotsLoadIntoKrabka() throws IOException {
        buildVariedState();
        kafka.takeSnapshot();
        Path copied = copyDir(kafkaDir, krabkaDir.resolve("from-kafka"));

        KrabkaPartitionState loaded = new KrabkaPartitionState(copied, EXPIRATION_MS);
        loaded.truncateAndReload(0L, kafka.mapEndOffset(), now);
        KafkaPartitionState reloaded = new KafkaPartitionState(kafkaDir, EXPIRATION_MS);
        reloaded.truncateAndReload(0L, kafka.mapEndOffset(), now);
        assertEquals(reloaded.state(), loaded.state());
        assertEquals(Optional.of(new LogOffsetMetadata(18L)), loaded.psm.firstUnstableOffset());
    }

    @Test
    void krabkasSnapshotsLoadIntoKafka() throws IOException {
        buildVariedState();
        krabka.takeSnapshot();
        Path copied = copyDir(krabkaDir, kafkaDir.resolve("from-krabka"));

        KafkaPartitionState loaded = new KafkaPartitionState(copied, EXPIRATION_MS);
        loaded.truncateAndReload(0L, krabka.mapEndOffset(), now);
        KrabkaPartitionState reloaded = new KrabkaPartitionState(krabkaDir, EXPIRATION_MS);
        reloaded.truncateAndReload(0L, krabka.mapEndOffset(), now);
        assertEquals(reloaded.state(), loaded.state());
        assertEquals(Optional.of(18L), loaded.psm.firstUnstableOffset().map(m -> m.messageOffset));
    }

    private static Path copyDir(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Files.copy(file, to.resolve(file.getFileName()));
            }
        }
        return to;
    }

    @Test
    void eachReadsTheEntriesTheOtherWrote() throws IOException {
        List<ProducerStateEntry> ours = List.of(
                new ProducerStateEntry(11L, (short) 12, 13, 123456L, OptionalLong.empty()),
                withBatch(
                        new ProducerStateEntry(1L, (short) 2, 3, ProducerBatch.NO_TIMESTAMP, OptionalLong.of(100L)),
                        1,
                        2L,
                        1),
                withBatch(
                        new ProducerStateEntry(
                                Long.MAX_VALUE,
                                Short.MAX_VALUE,
                                Integer.MAX_VALUE,
                                Long.MAX_VALUE,
                                OptionalLong.of(0L)),
                        Integer.MAX_VALUE,
                        Long.MAX_VALUE,
                        Integer.MAX_VALUE));
        Path ourFile = krabkaDir.resolve("00000000000000000005.snapshot");
        ProducerStateManager.writeSnapshot(ourFile, ours);
        List<org.apache.kafka.storage.internals.log.ProducerStateEntry> readByKafka =
                org.apache.kafka.storage.internals.log.ProducerStateManager.readSnapshot(ourFile.toFile());
        assertEquals(
                describeAll(ours.stream().map(KrabkaPartitionState::describe)),
                describeAll(readByKafka.stream().map(KafkaPartitionState::describe)));

        Map<Long, org.apache.kafka.storage.internals.log.ProducerStateEntry> theirs = new HashMap<>();
        readByKafka.forEach(e -> theirs.put(e.producerId(), e));
        Path kafkaFile = kafkaDir.resolve("00000000000000000005.snapshot");
        org.apache.kafka.storage.internals.log.ProducerStateManager.writeSnapshot(kafkaFile.toFile(), theirs, true);
        List<ProducerStateEntry> readByKrabka = ProducerStateManager.readSnapshot(kafkaFile);
        assertEquals(
                describeAll(readByKafka.stream().map(KafkaPartitionState::describe)),
                describeAll(readByKrabka.stream().map(KrabkaPartitionState::describe)));
    }

    private static ProducerStateEntry withBatch(
            ProducerStateEntry entry, int lastSeq, long lastOffset, int offsetDelta) {
        entry.addBatch(entry.producerEpoch(), lastSeq, lastOffset, offsetDelta, entry.lastTimestamp());
        return entry;
    }

    private static String describeAll(Stream<String> entries) {
        return entries.sorted().collect(Collectors.joining());
    }

    @Test
    void whatKafkaRejectsAsCorruptKrabkaRejectsToo() throws IOException {
        buildVariedState();
        byte[] whole = Files.readAllBytes(krabka.takeSnapshot().orElseThrow());
        List<byte[]> damaged = new ArrayList<>();
        for (int length = 0; length < whole.length; length++) {
            damaged.add(Arrays.copyOf(whole, length));
        }
        for (int bit = 0; bit < whole.length * 8; bit++) {
            byte[] flipped = whole.clone();
            flipped[bit / 8] ^= (byte) (1 << (bit % 8));
            damaged.add(flipped);
        }
        Path file = krabkaDir.resolve("00000000000000000099.snapshot");
        for (byte[] bytes : damaged) {
            Files.write(file, bytes);
            assertThrows(
                    org.apache.kafka.storage.internals.log.CorruptSnapshotException.class,
                    () -> org.apache.kafka.storage.internals.log.ProducerStateManager.readSnapshot(file.toFile()),
                    () -> HexFormat.of().formatHex(bytes));
            assertThrows(
                    CorruptSnapshotException.class,
                    () -> ProducerStateManager.readSnapshot(file),
                    () -> HexFormat.of().formatHex(bytes));
        }
    }

    @ParameterizedTest
    @ValueSource(longs = {1L, 2L, 3L, 20260101L})
    void theSameOperationsGiveTheSameOutcomesAndState(long seed) throws IOException {
        new RandomOperations(new Random(seed)).run(4_000);
    }

    /** Mostly plausible producers and coordinators, with retries, gaps, fencing, restarts and time passing. */
    private final class RandomOperations {

        private final Random random;
        private final Map<String, Integer> outcomes = new HashMap<>();
        private long nextOffset;
        private long highWatermark;

        RandomOperations(Random random) {
            this.random = random;
        }

        void run(int steps) throws IOException {
            for (int step = 0; step < steps; step++) {
                now += random.nextInt(2_000);
                int roll = random.nextInt(100);
                if (roll < 60) {
                    count(appendData());
                } else if (roll < 78) {
                    count(appendMarker());
                } else if (roll < 84) {
                    highWatermark += random.nextLong(nextOffset - highWatermark + 1);
                    both("high watermark " + highWatermark, s -> {
                        s.onHighWatermarkUpdated(highWatermark);
                        return "";
                    });
                } else if (roll < 90) {
                    snapshot();
                } else if (roll < 93) {
                    truncate();
                } else if (roll < 96) {
                    both("expire at " + now, s -> {
                        s.removeExpiredProducers(now);
                        return "";
                    });
                } else if (roll < 97) {
                    now += EXPIRATION_MS;
                }
            }
            // The operations reached every kind of outcome.
            for (String outcome : List.of(
                    "ok",
                    "none",
                    "completed",
                    "OutOfOrderSequenceException",
                    "InvalidProducerEpochException",
                    "InvalidTxnStateException",
                    "TransactionCoordinatorFencedException")) {
                assertEquals(true, outcomes.getOrDefault(outcome, 0) > 0, outcome + " in " + outcomes);
            }
        }

        private void count(String outcome) {
            outcomes.merge(outcome.startsWith("completed") ? "completed" : outcome, 1, Integer::sum);
        }

        private Optional<ProducerStateEntry> entry(long pid) {
            return krabka.psm.lastEntry(pid);
        }

        private short epoch(long pid, int bumpPercent) {
            short current = (short) Math.max(
                    0, entry(pid).map(ProducerStateEntry::producerEpoch).orElse((short) 0));
            int roll = random.nextInt(100);
            if (roll < bumpPercent) {
                return (short) (current + 1);
            } else if (roll < bumpPercent + 8 && current > 0) {
                return (short) (current - 1);
            }
            return current;
        }

        private String appendData() {
            long pid = 1L + random.nextInt(4);
            short epoch = epoch(pid, 10);
            Optional<ProducerStateEntry> entry = entry(pid);
            int next = entry.filter(e -> !e.isEmpty() && e.producerEpoch() == epoch)
                    .map(e -> e.lastSeq() == Integer.MAX_VALUE ? 0 : e.lastSeq() + 1)
                    .orElse(0);
            int roll = random.nextInt(100);
            int firstSeq = roll < 65
                    ? next
                    : roll < 75
                            ? 0
                            : roll < 85
                                    ? random.nextInt(50)
                                    : roll < 95 ? Math.max(0, next - 1) : Integer.MAX_VALUE - random.nextInt(3);
            int records = 1 + random.nextInt(3);
            int lastSeq = firstSeq > Integer.MAX_VALUE - (records - 1)
                    ? records - 1 - (Integer.MAX_VALUE - firstSeq) - 1
                    : firstSeq + records - 1;
            boolean open = entry.map(e -> e.currentTxnFirstOffset().isPresent()).orElse(false);
            boolean txn = random.nextInt(100) < (open ? 90 : 35);
            int originRoll = random.nextInt(100);
            AppendOrigin origin = originRoll < 85
                    ? AppendOrigin.CLIENT
                    : originRoll < 95 ? AppendOrigin.REPLICATION : AppendOrigin.COORDINATOR;
            long first = nextOffset;
            String outcome = data(pid, epoch, firstSeq, lastSeq, first, first + records - 1, txn, origin);
            if (outcome.equals("ok")) {
                nextOffset += records;
            }
            return outcome;
        }

        private String appendMarker() {
            long pid = 1L + random.nextInt(4);
            short epoch = epoch(pid, 30);
            int coordinatorEpoch = Math.max(
                            0,
                            entry(pid).map(ProducerStateEntry::coordinatorEpoch).orElse(0))
                    + random.nextInt(4)
                    - 1;
            int roll = random.nextInt(100);
            AppendOrigin origin = roll < 85 ? AppendOrigin.COORDINATOR : AppendOrigin.REPLICATION;
            short tv = origin == AppendOrigin.REPLICATION || roll < 2
                    ? ProducerAppendInfo.TV_UNKNOWN
                    : random.nextBoolean() ? (short) 0 : (short) 2;
            String outcome = marker(pid, epoch, random.nextBoolean(), coordinatorEpoch, nextOffset, tv, origin);
            if (!outcome.endsWith("Exception")) {
                nextOffset++;
            }
            return outcome;
        }

        private void snapshot() throws IOException {
            Optional<Path> kafkaFile = kafka.takeSnapshot();
            Optional<Path> krabkaFile = krabka.takeSnapshot();
            assertEquals(kafkaFile.map(Path::getFileName), krabkaFile.map(Path::getFileName));
            if (kafkaFile.isPresent()) {
                assertArrayEquals(
                        Files.readAllBytes(kafkaFile.get()),
                        Files.readAllBytes(krabkaFile.orElseThrow()),
                        kafkaFile.get().getFileName().toString());
            }
        }

        private void truncate() throws IOException {
            List<Long> snapshots = ProducerStateManager.listSnapshotFiles(krabkaDir).stream()
                    .map(SnapshotFile::offset)
                    .toList();
            long logEnd = !snapshots.isEmpty() && random.nextBoolean()
                    ? snapshots.get(random.nextInt(snapshots.size()))
                    : random.nextLong(nextOffset + 1);
            long logStart = random.nextInt(100) < 20 ? random.nextLong(logEnd + 1) : 0L;
            both("truncate to " + logStart + ".." + logEnd, s -> {
                try {
                    s.truncateAndReload(logStart, logEnd, now);
                } catch (IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
                return "";
            });
            assertEquals(snapshotNames(kafkaDir), snapshotNames(krabkaDir));
            // The log would replay its batches from the state's end; here the log ends there.
            nextOffset = krabka.mapEndOffset();
            highWatermark = Math.min(highWatermark, nextOffset);
        }

        private List<String> snapshotNames(Path dir) throws IOException {
            try (Stream<Path> files = Files.list(dir)) {
                return files.map(p -> p.getFileName().toString())
                        .filter(n -> n.endsWith(".snapshot"))
                        .sorted()
                        .toList();
            }
        }
    }
}
