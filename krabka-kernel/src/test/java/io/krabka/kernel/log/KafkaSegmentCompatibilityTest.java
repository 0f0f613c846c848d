package io.krabka.kernel.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.record.MemoryRecords;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Random;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.ControlRecordType;
import org.apache.kafka.common.record.internal.EndTransactionMarker;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.apache.kafka.common.record.internal.Records;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.server.util.KafkaScheduler;
import org.apache.kafka.storage.internals.checkpoint.LeaderEpochCheckpointFile;
import org.apache.kafka.storage.internals.epoch.LeaderEpochFileCache;
import org.apache.kafka.storage.internals.log.LogConfig;
import org.apache.kafka.storage.internals.log.LogDirFailureChannel;
import org.apache.kafka.storage.internals.log.ProducerStateManagerConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka 4.4's own LogSegment judges the segment: batches built by kafka-clients, appended by both, give the same
 * files byte for byte; each reads the other's files with the same answers for every offset and timestamp; and
 * recovery of the same records file, whole or torn, gives the same files, producer snapshot and epochs.
 */
class KafkaSegmentCompatibilityTest {

    private static final long BASE = 1_000;
    private static final int INDEX_BYTES = 64 * 1024;
    private static final int INTERVAL = 700;
    private static final SegmentConfig CONFIG = new SegmentConfig(INDEX_BYTES, INTERVAL, 0);
    private static final long T0 = TestBatches.T0;
    private static final long PID = 77;
    private static final long TXN_PID = 88;
    private static final short EPOCH = 3;
    private static final String[] NAMES = {
        "00000000000000001000.log", "00000000000000001000.index", "00000000000000001000.timeindex"
    };

    @TempDir
    Path dir;

    final List<ByteBuffer> batches = new ArrayList<>();
    final List<Long> lastOffsets = new ArrayList<>();
    final TestTime time = new TestTime();
    final KafkaScheduler scheduler = new KafkaScheduler(1);
    LogConfig kafkaConfig;

    @BeforeEach
    void kafkaBuildsTheBatches() {
        scheduler.startup();
        kafkaConfig = new LogConfig(Map.of("segment.index.bytes", INDEX_BYTES, "index.interval.bytes", INTERVAL));
        Compression[] codecs = {
            Compression.NONE,
            Compression.gzip().build(),
            Compression.snappy().build(),
            Compression.lz4().build(),
            Compression.zstd().build()
        };
        Random random = new Random(5);
        long offset = BASE;
        int sequence = 0;
        int txnSequence = 0;
        for (int n = 0; n < 45; n++) {
            int leaderEpoch = n < 15 ? 0 : n < 30 ? 2 : 5;
            long timestamp = T0 + 100L * n - random.nextInt(250);
            if (n % 9 == 8) {
                ControlRecordType type = n % 18 == 8 ? ControlRecordType.ABORT : ControlRecordType.COMMIT;
                add(org.apache.kafka.common.record.internal.MemoryRecords.withEndTransactionMarker(
                                offset, timestamp, leaderEpoch, TXN_PID, EPOCH, new EndTransactionMarker(type, 4))
                        .buffer());
                offset++;
                continue;
            }
            int count = 1 + random.nextInt(12);
            boolean transactional = n % 9 >= 5;
            long producerId = n % 3 == 1 ? PID : transactional ? TXN_PID : -1;
            int baseSequence = producerId == PID ? sequence : producerId == TXN_PID ? txnSequence : -1;
            MemoryRecordsBuilder builder = org.apache.kafka.common.record.internal.MemoryRecords.builder(
                    ByteBuffer.allocate(64),
                    (byte) 2,
                    codecs[n % codecs.length],
                    TimestampType.CREATE_TIME,
                    offset,
                    -1,
                    producerId,
                    producerId < 0 ? -1 : EPOCH,
                    baseSequence,
                    producerId == TXN_PID,
                    leaderEpoch);
            for (int i = 0; i < count; i++) {
                byte[] value = new byte[10 + random.nextInt(200)];
                random.nextBytes(value);
                builder.appendWithOffset(
                        offset + i, timestamp + random.nextInt(40), ("k" + i).getBytes(StandardCharsets.UTF_8), value);
            }
            add(builder.build().buffer());
            if (producerId == PID) {
                sequence += count;
            } else if (producerId == TXN_PID) {
                txnSequence += count;
            }
            offset += count;
        }
    }

    private void add(ByteBuffer batch) {
        batches.add(batch);
        long last = -1;
        for (MutableRecordBatch b : org.apache.kafka.common.record.internal.MemoryRecords.readableRecords(
                        batch.duplicate())
                .batches()) {
            last = b.lastOffset();
        }
        lastOffsets.add(last);
    }

    @AfterEach
    void stopScheduler() throws InterruptedException {
        scheduler.shutdown();
    }

    private org.apache.kafka.storage.internals.log.LogSegment kafkaSegment(Path segmentDir, boolean exists)
            throws IOException {
        return org.apache.kafka.storage.internals.log.LogSegment.open(
                segmentDir.toFile(), BASE, kafkaConfig, Time.SYSTEM, exists, 0, false, "");
    }

    private LogSegment krabkaSegment(Path segmentDir, boolean exists) throws IOException {
        return LogSegment.open(segmentDir, BASE, CONFIG, time, exists, 0, false, "");
    }

    /** Both append every batch, then the segments become inactive and close. */
    private void appendWithBoth(Path kafkaDir, Path krabkaDir) throws IOException {
        var kafka = kafkaSegment(kafkaDir, false);
        try (LogSegment krabka = krabkaSegment(krabkaDir, false)) {
            for (int n = 0; n < batches.size(); n++) {
                kafka.append(
                        lastOffsets.get(n),
                        org.apache.kafka.common.record.internal.MemoryRecords.readableRecords(
                                batches.get(n).duplicate()));
                krabka.append(
                        lastOffsets.get(n),
                        MemoryRecords.readableRecords(batches.get(n).duplicate(), "kafka", 0));
            }
            kafka.onBecomeInactiveSegment();
            krabka.onBecomeInactiveSegment();
        } finally {
            kafka.close();
        }
    }

    @Test
    void appendsOfTheSameBatchesGiveTheSameFiles() throws IOException {
        Path kafkaDir = Files.createDirectory(dir.resolve("kafka"));
        Path krabkaDir = Files.createDirectory(dir.resolve("krabka"));
        appendWithBoth(kafkaDir, krabkaDir);
        for (String name : NAMES) {
            assertArrayEquals(
                    Files.readAllBytes(kafkaDir.resolve(name)), Files.readAllBytes(krabkaDir.resolve(name)), name);
        }
        assertTrue(Files.size(kafkaDir.resolve(NAMES[1])) > 8 * 10, "the segment has many index entries");
    }

    @Test
    void eachReadsTheOthersSegmentWithTheSameAnswers() throws IOException {
        Path kafkaDir = Files.createDirectory(dir.resolve("kafka"));
        Path krabkaDir = Files.createDirectory(dir.resolve("krabka"));
        appendWithBoth(kafkaDir, krabkaDir);
        // Kafka reads the files Krabka wrote; Krabka reads the files Kafka wrote.
        var kafka = kafkaSegment(krabkaDir, true);
        try (LogSegment krabka = krabkaSegment(kafkaDir, true)) {
            kafka.offsetIndex().sanityCheck();
            kafka.timeIndex().sanityCheck();
            krabka.offsetIndex().sanityCheck();
            krabka.timeIndex().sanityCheck();
            assertSameReads(kafka, krabka);
        } finally {
            kafka.close();
        }
    }

    private void assertSameReads(org.apache.kafka.storage.internals.log.LogSegment kafka, LogSegment krabka)
            throws IOException {
        long end = lastOffsets.getLast() + 1;
        assertEquals(kafka.readNextOffset(), krabka.readNextOffset());
        assertEquals(kafka.largestTimestamp(), krabka.largestTimestamp());
        assertEquals(
                kafka.readMaxTimestampAndOffsetSoFar().timestamp(),
                krabka.readMaxTimestampAndOffsetSoFar().timestamp());
        assertEquals(
                kafka.readMaxTimestampAndOffsetSoFar().offset(),
                krabka.readMaxTimestampAndOffsetSoFar().offset());
        for (long offset = BASE - 2; offset <= end + 1; offset++) {
            FileRecords.LogOffsetPosition theirs = kafka.translateOffset(offset);
            Optional<LogOffsetPosition> ours = krabka.translateOffset(offset);
            if (theirs == null) {
                assertEquals(Optional.empty(), ours, "offset " + offset);
                assertNull(kafka.read(offset, 1000));
                assertEquals(Optional.empty(), krabka.read(offset, 1000));
                continue;
            }
            assertEquals(new LogOffsetPosition(theirs.offset, theirs.position, theirs.size), ours.orElseThrow());
            for (int maxSize : new int[] {0, 1, 150, 4_000, 1 << 20}) {
                for (boolean minOne : new boolean[] {false, true}) {
                    var theirRead = kafka.read(offset, maxSize, Optional.of((long) kafka.size()), minOne);
                    FetchDataInfo ourRead = krabka.read(offset, maxSize, OptionalLong.of(krabka.size()), minOne)
                            .orElseThrow();
                    String what = "offset " + offset + ", max " + maxSize + ", minOne " + minOne;
                    assertEquals(
                            new LogOffsetMetadata(
                                    theirRead.fetchOffsetMetadata.messageOffset,
                                    theirRead.fetchOffsetMetadata.segmentBaseOffset,
                                    theirRead.fetchOffsetMetadata.relativePositionInSegment),
                            ourRead.fetchOffsetMetadata(),
                            what);
                    assertEquals(theirRead.firstEntryIncomplete, ourRead.firstEntryIncomplete(), what);
                    assertArrayEquals(bytes(theirRead.records), bytes(ourRead.records()), what);
                }
            }
        }
        long from = T0 - 400;
        long to = T0 + 100L * batches.size() + 100;
        for (long timestamp = from; timestamp <= to; timestamp += 37) {
            for (long startingOffset : new long[] {0, BASE + 50, end}) {
                var theirs = kafka.findOffsetByTimestamp(timestamp, startingOffset, Integer.MAX_VALUE);
                var ours = krabka.findOffsetByTimestamp(timestamp, startingOffset, Integer.MAX_VALUE);
                assertEquals(
                        theirs.map(t -> new TimestampAndOffset(
                                t.timestamp,
                                t.offset,
                                t.leaderEpoch.map(OptionalInt::of).orElseGet(OptionalInt::empty))),
                        ours,
                        "timestamp " + timestamp + " from " + startingOffset);
            }
        }
    }

    @Test
    void recoveryOfTheSameRecordsGivesTheSameFilesProducerSnapshotAndEpochs() throws IOException {
        Path written = Files.createDirectory(dir.resolve("written"));
        appendWithBoth(written, Files.createDirectory(dir.resolve("unused")));
        byte[] log = Files.readAllBytes(written.resolve(NAMES[0]));
        int lastBatch = log.length - batches.getLast().remaining();
        for (int length : new int[] {log.length, log.length - 1, lastBatch + 30, lastBatch}) {
            assertSameRecovery(Arrays.copyOf(log, length), length == log.length ? 0 : length - lastBatch);
        }
    }

    private void assertSameRecovery(byte[] log, int expectedTruncation) throws IOException {
        Path kafkaDir = Files.createDirectory(dir.resolve("kafka-" + log.length));
        Path krabkaDir = Files.createDirectory(dir.resolve("krabka-" + log.length));
        Files.write(kafkaDir.resolve(NAMES[0]), log);
        Files.write(krabkaDir.resolve(NAMES[0]), log);

        var kafkaProducers = new org.apache.kafka.storage.internals.log.ProducerStateManager(
                new TopicPartition("test", 0),
                kafkaDir.toFile(),
                ProducerStateFixture.MAX_TRANSACTION_TIMEOUT_MS,
                new ProducerStateManagerConfig(86_400_000, false),
                Time.SYSTEM);
        kafkaProducers.truncateFullyAndStartAt(BASE);
        var kafkaEpochs = new LeaderEpochFileCache(
                new TopicPartition("test", 0),
                new LeaderEpochCheckpointFile(
                        kafkaDir.resolve("leader-epoch-checkpoint").toFile(), new LogDirFailureChannel(1)),
                scheduler);
        var kafka = kafkaSegment(kafkaDir, true);
        try {
            assertEquals(expectedTruncation, kafka.recover(kafkaProducers, kafkaEpochs));
        } finally {
            kafka.close();
        }
        kafkaProducers.takeSnapshot();

        ProducerStateManager krabkaProducers = new ProducerStateFixture(krabkaDir).stateManager;
        krabkaProducers.truncateFullyAndStartAt(BASE);
        TestEpochs krabkaEpochs = new TestEpochs();
        try (LogSegment krabka = krabkaSegment(krabkaDir, true)) {
            assertEquals(expectedTruncation, krabka.recover(krabkaProducers, krabkaEpochs));
        }
        krabkaProducers.takeSnapshot();

        String snapshot = LogFileUtils.producerSnapshotFile(krabkaDir, krabkaProducers.mapEndOffset())
                .getFileName()
                .toString();
        assertEquals(kafkaProducers.mapEndOffset(), krabkaProducers.mapEndOffset());
        for (String name : List.of(NAMES[0], NAMES[1], NAMES[2], "00000000000000001000.txnindex")) {
            assertArrayEquals(
                    Files.readAllBytes(kafkaDir.resolve(name)),
                    Files.readAllBytes(krabkaDir.resolve(name)),
                    name + " after recovering " + log.length + " bytes");
        }
        // Kafka writes a snapshot's producers in its hash map's order, the kernel by producer id: the same entries.
        assertEquals(snapshotEntries(kafkaDir.resolve(snapshot)), snapshotEntries(krabkaDir.resolve(snapshot)));
        assertEquals(
                2,
                ProducerStateManager.readSnapshot(krabkaDir.resolve(snapshot)).size());
        assertTrue(
                Files.size(kafkaDir.resolve("00000000000000001000.txnindex")) > 0, "an aborted transaction is indexed");
        assertEquals(
                kafkaEpochs.epochEntries().stream()
                        .map(e -> new TestEpochs.Assignment(e.epoch(), e.startOffset()))
                        .toList(),
                krabkaEpochs.assignments);
        assertEquals(3, krabkaEpochs.assignments.size());
    }

    private static List<String> snapshotEntries(Path snapshot) throws IOException {
        return ProducerStateManager.readSnapshot(snapshot).stream()
                .sorted(Comparator.comparingLong(ProducerStateEntry::producerId))
                .map(ProducerStateEntry::toString)
                .toList();
    }

    private static byte[] bytes(Records records) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(records.sizeInBytes());
        if (records instanceof FileRecords file) {
            file.readInto(buffer, 0);
        } else {
            buffer.put(((org.apache.kafka.common.record.internal.MemoryRecords) records)
                    .buffer()
                    .duplicate());
        }
        return buffer.array();
    }

    private static byte[] bytes(FetchRecords records) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(records.sizeInBytes());
        records.readInto(buffer, 0);
        return buffer.array();
    }
}
