package io.krabka.kernel.log;

import static io.krabka.kernel.log.TestBatches.T0;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.zip.CRC32;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A segment an old Kafka wrote: v0 and v1 entries, one a gzip wrapper whose header knows only its last offset,
 * then a v2 batch. Scans, lookups, timestamp searches and recovery handle them as Kafka does.
 */
class LegacySegmentTest {

    @TempDir
    Path dir;

    final TestTime time = new TestTime();

    /** A v0/v1 entry: offset, size, CRC-32 over magic..end, magic, attributes, [timestamp], key, value. */
    static ByteBuffer entry(long offset, int magic, int attributes, long timestamp, byte[] value) {
        int messageSize = (magic == 0 ? 14 : 22) + value.length;
        ByteBuffer b = ByteBuffer.allocate(12 + messageSize);
        b.putLong(offset).putInt(messageSize).position(16).put((byte) magic).put((byte) attributes);
        if (magic == 1) {
            b.putLong(timestamp);
        }
        b.putInt(-1).putInt(value.length).put(value);
        CRC32 crc = new CRC32();
        crc.update(b.array(), 16, messageSize - 4);
        return b.putInt(12, (int) crc.getValue()).flip();
    }

    static ByteBuffer entry(long offset, long timestamp, String value) {
        return entry(offset, 1, 0, timestamp, value.getBytes(StandardCharsets.UTF_8));
    }

    /** A v1 gzip wrapper of records at offsets {@code first..first+n-1}: inner offsets relative, the wrapper's last. */
    static ByteBuffer gzipWrapper(long first, long... timestamps) {
        ByteArrayOutputStream compressed = new ByteArrayOutputStream();
        try (GZIPOutputStream gzip = new GZIPOutputStream(compressed)) {
            for (int i = 0; i < timestamps.length; i++) {
                gzip.write(TestBatches.bytes(entry(i, timestamps[i], "inner-" + (first + i))));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        long max = Arrays.stream(timestamps).max().orElseThrow();
        return entry(first + timestamps.length - 1, 1, 1, max, compressed.toByteArray());
    }

    private final List<ByteBuffer> entries = List.of(
            entry(0, T0, "zero"),
            entry(1, T0 + 5, "one"),
            gzipWrapper(2, T0 + 10, T0 + 12, T0 + 11),
            entry(5, 0, 0, -1, "five".getBytes(StandardCharsets.UTF_8)),
            TestBatches.batch(6, 3, T0 + 20));

    private int position(int n) {
        return entries.subList(0, n).stream().mapToInt(ByteBuffer::remaining).sum();
    }

    private LogSegment segment(byte[] log) throws IOException {
        Path segmentDir = Files.createTempDirectory(dir, "segment");
        Files.write(LogFileUtils.logFile(segmentDir, 0, ""), log);
        return LogSegment.open(segmentDir, 0, new SegmentConfig(4096, 0, 0), time, true, 0, false, "");
    }

    private byte[] all() {
        return TestBatches.bytes(TestBatches.concat(entries.toArray(ByteBuffer[]::new)));
    }

    @Test
    void headerScansKnowEachEntrysOffsetsAndTimestamp() throws IOException {
        try (LogSegment segment = segment(all())) {
            List<String> seen = new ArrayList<>();
            segment.log()
                    .batches()
                    .forEach(b -> seen.add(b.magic() + ":" + b.baseOffset() + "-" + b.lastOffset() + "@"
                            + b.maxTimestamp() + "+" + b.position()));
            assertEquals(
                    List.of(
                            "1:0-0@" + T0 + "+0",
                            "1:1-1@" + (T0 + 5) + "+" + position(1),
                            "1:2-4@" + (T0 + 12) + "+" + position(2),
                            "0:5-5@-1+" + position(3),
                            "2:6-8@" + (T0 + 22) + "+" + position(4)),
                    seen);
        }
    }

    @Test
    void lookupsAndTimestampSearchesReadIntoTheWrapper() throws IOException {
        try (LogSegment segment = segment(all())) {
            assertEquals(
                    new LogOffsetPosition(2, position(2), entries.get(2).remaining()),
                    segment.translateOffset(3).orElseThrow());
            assertEquals(
                    new LogOffsetMetadata(2, 0, position(2)),
                    segment.read(4, 1000).orElseThrow().fetchOffsetMetadata());
            assertEquals(
                    new TimestampAndOffset(T0 + 12, 3, java.util.OptionalInt.empty()),
                    segment.findOffsetByTimestamp(T0 + 12, 0, 1 << 20).orElseThrow());
            assertEquals(
                    4,
                    segment.findOffsetByTimestamp(T0 + 11, 4, 1 << 20)
                            .orElseThrow()
                            .offset());
            assertEquals(
                    6,
                    segment.findOffsetByTimestamp(T0 + 13, 0, 1 << 20)
                            .orElseThrow()
                            .offset());
            assertEquals(9, segment.readNextOffset());
        }
    }

    @Test
    void recoveryIndexesLegacyEntriesAndCutsAtADamagedOne() throws IOException {
        try (LogSegment segment = segment(all())) {
            ProducerStateManager producers = new ProducerStateFixture(dir).stateManager;
            producers.truncateFullyAndStartAt(0);
            assertEquals(0, segment.recover(producers, new TestEpochs()));
            assertEquals(
                    List.of(
                            new OffsetPosition(1, position(1)),
                            new OffsetPosition(4, position(2)),
                            new OffsetPosition(5, position(3)),
                            new OffsetPosition(8, position(4))),
                    LogSegmentTest.entries(segment.offsetIndex()));
            assertEquals(new TimestampOffset(T0 + 22, 8), segment.timeIndex().lastEntry());
            assertEquals(9, producers.mapEndOffset(), "the v2 batch moves the producer state's end");
        }
        byte[] damaged = all();
        damaged[position(2) + 40] ^= 1; // inside the wrapper's compressed value, under its CRC-32
        try (LogSegment segment = segment(damaged)) {
            assertEquals(
                    damaged.length - position(2),
                    segment.recover(new ProducerStateFixture(dir).stateManager, new TestEpochs()));
            assertEquals(2, segment.readNextOffset());
        }
        byte[] torn = Arrays.copyOf(all(), position(3) - 1);
        try (LogSegment segment = segment(torn)) {
            assertEquals(
                    entries.get(2).remaining() - 1,
                    segment.recover(new ProducerStateFixture(dir).stateManager, new TestEpochs()));
            assertEquals(position(2), segment.size());
        }
    }
}
