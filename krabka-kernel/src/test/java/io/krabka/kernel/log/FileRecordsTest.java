package io.krabka.kernel.log;

import static io.krabka.kernel.log.TestBatches.T0;
import static io.krabka.kernel.log.TestBatches.batch;
import static io.krabka.kernel.log.TestBatches.bytes;
import static io.krabka.kernel.log.TestBatches.concat;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.record.Compression;
import io.krabka.kernel.record.CompressionType;
import io.krabka.kernel.record.CorruptRecordException;
import io.krabka.kernel.record.LogBatch;
import io.krabka.kernel.record.RecordBatch;
import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A segment's records file: appends, slices, header-only scans, searches, truncation, corrupt framing. */
class FileRecordsTest {

    @TempDir
    Path dir;

    Path file;
    FileRecords records;
    final List<ByteBuffer> batches = new ArrayList<>();

    @BeforeEach
    void open() throws IOException {
        file = dir.resolve("00000000000000000000.log");
        records = FileRecords.open(file);
    }

    @AfterEach
    void close() throws IOException {
        records.close();
    }

    /** Ten batches of 1 to 10 records from offset 0, each timestamped from T0 + 100 * its number. */
    private void appendTen() throws IOException {
        long offset = 0;
        for (int n = 1; n <= 10; n++) {
            ByteBuffer b = batch(offset, n, T0 + 100L * n);
            batches.add(b);
            assertEquals(b.remaining(), records.append(b));
            offset += n;
        }
    }

    private int positionOf(int batch) {
        int position = 0;
        for (int n = 0; n < batch; n++) {
            position += batches.get(n).remaining();
        }
        return position;
    }

    @Test
    void appendsAreReadBackBatchByBatchFromTheirHeaders() throws IOException {
        appendTen();
        int total = positionOf(10);
        assertEquals(total, records.sizeInBytes());
        assertEquals(total, Files.size(file));
        List<FileChannelBatch> read = new ArrayList<>();
        records.batches().forEach(read::add);
        assertEquals(10, read.size());
        long offset = 0;
        for (int n = 0; n < 10; n++) {
            FileChannelBatch b = read.get(n);
            RecordBatch expected = RecordBatch.at(batches.get(n), 0, "expected", 0);
            assertEquals(positionOf(n), b.position());
            assertEquals(expected.sizeInBytes(), b.sizeInBytes());
            assertEquals(offset, b.baseOffset());
            assertEquals(offset + n, b.lastOffset());
            assertEquals(offset + n + 1, b.nextOffset());
            assertEquals(expected.maxTimestamp(), b.maxTimestamp());
            assertEquals(2, b.magic());
            LogBatch full = b.loadFullBatch();
            full.ensureValid();
            assertArrayEquals(bytes(batches.get(n)), bytes(full.buffer()));
            offset += n + 1;
        }
        List<FileChannelBatch> fromFifth = new ArrayList<>();
        records.batchesFrom(positionOf(5)).forEach(fromFifth::add);
        assertEquals(
                read.subList(5, 10).stream().map(FileChannelBatch::position).toList(),
                fromFifth.stream().map(FileChannelBatch::position).toList());
    }

    @Test
    void aFileOpenedAgainCountsAllItsBytes() throws IOException {
        appendTen();
        records.close();
        records = FileRecords.open(file, true, 0, false);
        assertEquals(positionOf(10), records.sizeInBytes());
        ByteBuffer next = batch(55, 1, T0);
        records.append(next);
        assertEquals(positionOf(10) + next.remaining(), Files.size(file));
    }

    @Test
    void aNewPreallocatedFileIsEmptyUntilAppendedAndTrimmedToItsBatches() throws IOException {
        records.close();
        Files.delete(file);
        records = FileRecords.open(file, false, 1 << 20, true);
        assertEquals(0, records.sizeInBytes());
        assertEquals(1 << 20, Files.size(file));
        appendTen();
        assertEquals(positionOf(10), records.sizeInBytes());
        assertEquals(1 << 20, Files.size(file));
        records.trim();
        assertEquals(positionOf(10), Files.size(file));
    }

    @Test
    void aPreallocatedFileNeverTrimmedShowsItsZerosWhenOpenedAgainAndTheScanRejectsThem() throws IOException {
        records.close();
        Files.delete(file);
        records = FileRecords.open(file, false, 65_536, true);
        appendTen();
        records.close();
        records = FileRecords.open(file, true, 65_536, true);
        assertEquals(65_536, records.sizeInBytes());
        CorruptRecordException e = assertThrows(
                CorruptRecordException.class, () -> records.batches().forEach(b -> {}));
        assertTrue(e.getMessage().contains(file + " at byte " + positionOf(10)), e.getMessage());
    }

    @Test
    void aSliceIsARegionOfWholeBatchesCutAtTheEndOfTheFile() throws IOException {
        appendTen();
        FileSlice slice = records.slice(positionOf(3), positionOf(6) - positionOf(3));
        assertEquals(positionOf(3), slice.start());
        assertEquals(positionOf(6) - positionOf(3), slice.sizeInBytes());
        assertEquals(List.of(positionOf(3), positionOf(4), positionOf(5)), positions(slice));
        assertArrayEquals(bytes(concat(batches.get(3), batches.get(4), batches.get(5))), readAll(slice));

        FileSlice tail = records.slice(positionOf(8), Integer.MAX_VALUE);
        assertEquals(positionOf(10) - positionOf(8), tail.sizeInBytes());
        assertEquals(0, records.slice(positionOf(10), 100).sizeInBytes());
        // A slice cut inside a batch shows the whole batches before the cut only.
        FileSlice cut = records.slice(0, positionOf(2) + 10);
        assertEquals(List.of(0, positionOf(1)), positions(cut));

        assertThrows(IllegalArgumentException.class, () -> records.slice(-1, 10));
        assertThrows(IllegalArgumentException.class, () -> records.slice(positionOf(10) + 1, 10));
        assertThrows(IllegalArgumentException.class, () -> records.slice(0, -1));
    }

    @Test
    void aSliceTransfersItsBytesThroughTheChannelInOneOrManyCalls() throws IOException {
        appendTen();
        FileSlice slice = records.slice(positionOf(2), positionOf(9) - positionOf(2));
        byte[] expected = bytes(concat(batches.subList(2, 9).toArray(ByteBuffer[]::new)));

        ByteArrayOutputStream whole = new ByteArrayOutputStream();
        try (WritableByteChannel target = Channels.newChannel(whole)) {
            long sent = 0;
            while (sent < slice.sizeInBytes()) {
                sent += slice.transferTo(target, sent, slice.sizeInBytes() - sent);
            }
        }
        assertArrayEquals(expected, whole.toByteArray());

        ByteArrayOutputStream pieces = new ByteArrayOutputStream();
        try (WritableByteChannel target = Channels.newChannel(pieces)) {
            long sent = 0;
            while (sent < slice.sizeInBytes()) {
                long n = slice.transferTo(target, sent, 37);
                assertTrue(n > 0 && n <= 37);
                sent += n;
            }
            assertEquals(0, slice.transferTo(target, slice.sizeInBytes(), 100));
        }
        assertArrayEquals(expected, pieces.toByteArray());

        Path copy = dir.resolve("copy");
        try (FileChannel target = FileChannel.open(copy, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            long sent = 0;
            while (sent < slice.sizeInBytes()) {
                sent += slice.transferTo(target, sent, Long.MAX_VALUE);
            }
        }
        assertArrayEquals(expected, Files.readAllBytes(copy));
        assertThrows(IllegalArgumentException.class, () -> slice.transferTo(Channels.newChannel(pieces), -1, 1));
        assertThrows(
                IllegalArgumentException.class,
                () -> slice.transferTo(Channels.newChannel(pieces), slice.sizeInBytes() + 1, 1));
    }

    @Test
    void aSliceOfBytesTruncatedAwayFailsWithATypedErrorNamingTheFile() throws IOException {
        appendTen();
        FileSlice slice = records.slice(positionOf(5), Integer.MAX_VALUE);
        records.truncateTo(positionOf(7));
        EOFException e = assertThrows(
                EOFException.class,
                () -> slice.transferTo(Channels.newChannel(new ByteArrayOutputStream()), 0, Long.MAX_VALUE));
        assertTrue(e.getMessage().contains(file.toString()), e.getMessage());
        assertThrows(EOFException.class, () -> readAll(slice));
    }

    @Test
    void readIntoCopiesWhatFitsFromAPosition() throws IOException {
        appendTen();
        ByteBuffer buffer = ByteBuffer.allocate(batches.get(4).remaining());
        assertEquals(buffer.capacity(), records.readInto(buffer, positionOf(4)));
        assertArrayEquals(bytes(batches.get(4)), buffer.array());
        ByteBuffer large = ByteBuffer.allocate(positionOf(10) + 100);
        assertEquals(positionOf(10) - positionOf(9), records.readInto(large, positionOf(9)));
        assertEquals(positionOf(10) - positionOf(9), large.position());
    }

    @Test
    void searchForOffsetFindsTheBatchHoldingItOrTheNextAfterAGap() throws IOException {
        long offset = 0;
        List<ByteBuffer> withGaps = new ArrayList<>();
        for (int n = 0; n < 6; n++) {
            ByteBuffer b = batch(offset, 3, T0); // offsets [10n, 10n + 2]: gaps of 7 between batches
            withGaps.add(b);
            records.append(b);
            offset += 10;
        }
        int position = 0;
        for (int n = 0; n < 6; n++) {
            int size = withGaps.get(n).remaining();
            for (long target = 10L * n - 7; target <= 10L * n + 2; target++) {
                if (target < 0) {
                    continue;
                }
                assertEquals(
                        new LogOffsetPosition(10L * n, position, size),
                        records.searchForOffsetFromPosition(target, 0).orElseThrow(),
                        "offset " + target);
            }
            // From the batch's own position the answer is the same; from past it, the next batch.
            assertEquals(
                    position,
                    records.searchForOffsetFromPosition(10L * n, position)
                            .orElseThrow()
                            .position());
            position += size;
        }
        assertTrue(records.searchForOffsetFromPosition(53, 0).isEmpty());
        assertTrue(records.searchForOffsetFromPosition(0, position).isEmpty());
    }

    @Test
    void searchForTimestampFindsTheFirstRecordAtOrAboveItFromAnOffset() throws IOException {
        records.append(batch(Compression.NONE, 0, 5, T0 + 10, 3)); // 0..4 at T0+10..14
        records.append(batch(Compression.of(CompressionType.GZIP), 5, 5, T0 + 5, 4)); // 5..9 at T0+5..9
        records.append(batch(Compression.NONE, 10, 5, T0 + 20, 5)); // 10..14 at T0+20..24
        assertEquals(
                new TimestampAndOffset(T0 + 10, 0, OptionalInt.of(3)),
                records.searchForTimestamp(T0, 0, 0, 1 << 20).orElseThrow());
        assertEquals(
                new TimestampAndOffset(T0 + 12, 2, OptionalInt.of(3)),
                records.searchForTimestamp(T0 + 12, 0, 0, 1 << 20).orElseThrow());
        assertEquals(
                new TimestampAndOffset(T0 + 7, 7, OptionalInt.of(4)),
                records.searchForTimestamp(T0 + 7, 0, 5, 1 << 20).orElseThrow());
        assertEquals(
                new TimestampAndOffset(T0 + 20, 10, OptionalInt.of(5)),
                records.searchForTimestamp(T0 + 15, 0, 0, 1 << 20).orElseThrow());
        assertEquals(
                new TimestampAndOffset(T0 + 22, 12, OptionalInt.of(5)),
                records.searchForTimestamp(T0 + 5, 0, 12, 1 << 20).orElseThrow());
        assertTrue(records.searchForTimestamp(T0 + 25, 0, 0, 1 << 20).isEmpty());
        assertTrue(records.searchForTimestamp(T0, 0, 15, 1 << 20).isEmpty());
    }

    @Test
    void largestTimestampAfterAPositionComesFromTheBatchHeaders() throws IOException {
        records.append(batch(Compression.NONE, 0, 5, T0 + 10, 3));
        assertEquals(3, records.batches().iterator().next().partitionLeaderEpoch());
        int second = records.sizeInBytes();
        records.append(batch(Compression.NONE, 5, 5, T0 + 50, 4));
        int third = records.sizeInBytes();
        records.append(batch(Compression.NONE, 10, 5, T0 + 20, 5));
        assertEquals(new TimestampAndOffset(T0 + 54, 9, OptionalInt.of(4)), records.largestTimestampAfter(0));
        assertEquals(new TimestampAndOffset(T0 + 24, 14, OptionalInt.of(5)), records.largestTimestampAfter(third));
        assertEquals(
                new TimestampAndOffset(-1, -1, OptionalInt.empty()),
                records.largestTimestampAfter(records.sizeInBytes()));
        assertEquals(
                second, records.searchForOffsetFromPosition(5, 0).orElseThrow().position());
    }

    @Test
    void truncationCutsTheFileAndWhatReadersSee() throws IOException {
        appendTen();
        assertEquals(positionOf(10) - positionOf(6), records.truncateTo(positionOf(6)));
        assertEquals(positionOf(6), records.sizeInBytes());
        assertEquals(positionOf(6), Files.size(file));
        assertEquals(6, positions(records.slice(0, Integer.MAX_VALUE)).size());
        assertEquals(0, records.truncateTo(positionOf(6)));
        // Inside a batch: the bytes are cut, the torn batch is no longer seen.
        records.truncateTo(positionOf(5) + 20);
        assertEquals(5, positions(records.slice(0, Integer.MAX_VALUE)).size());
        IllegalArgumentException above =
                assertThrows(IllegalArgumentException.class, () -> records.truncateTo(positionOf(6)));
        assertTrue(above.getMessage().contains(file.toString()), above.getMessage());
        assertThrows(IllegalArgumentException.class, () -> records.truncateTo(-1));
        assertEquals(positionOf(5) + 20, records.truncateTo(0));
        assertEquals(0, Files.size(file));
        assertFalse(records.batches().iterator().hasNext());
        ByteBuffer again = batch(0, 1, T0);
        records.append(again);
        assertArrayEquals(bytes(again), Files.readAllBytes(file));
    }

    @Test
    void aTornLastBatchIsNotSeenAtAnyCut() throws IOException {
        appendTen();
        byte[] all = Files.readAllBytes(file);
        for (int cut = positionOf(9); cut < positionOf(10); cut++) {
            try (FileRecords torn = openCopy(all, cut)) {
                assertEquals(9, positions(torn.slice(0, Integer.MAX_VALUE)).size(), "cut at " + cut);
            }
        }
    }

    @Test
    void corruptFramingFailsWithATypedErrorNamingTheFileAndPosition() throws IOException {
        appendTen();
        byte[] all = Files.readAllBytes(file);
        int at = positionOf(4);
        byte[] smallSize = all.clone();
        ByteBuffer.wrap(smallSize).putInt(at + 8, 13);
        byte[] badMagic = all.clone();
        badMagic[at + 16] = 7;
        byte[] shortV2 = all.clone();
        ByteBuffer.wrap(shortV2).putInt(at + 8, 40);
        for (byte[] bad : List.of(smallSize, badMagic, shortV2)) {
            try (FileRecords corrupt = openCopy(bad, bad.length)) {
                CorruptRecordException e = assertThrows(
                        CorruptRecordException.class, () -> corrupt.batches().forEach(b -> {}));
                assertTrue(e.getMessage().contains(corrupt.file() + " at byte " + at), e.getMessage());
                assertThrows(CorruptRecordException.class, () -> corrupt.searchForOffsetFromPosition(1000, 0));
            }
        }
    }

    @Test
    void renameAndParentDirFollowTheFileWhichStaysReadable() throws IOException {
        appendTen();
        Path deleted = dir.resolve(file.getFileName() + LogFileUtils.DELETED_FILE_SUFFIX);
        records.renameTo(deleted);
        assertEquals(deleted, records.file());
        assertFalse(Files.exists(file));
        assertEquals(10, positions(records.slice(0, Integer.MAX_VALUE)).size());
        Path moved = Files.createDirectory(dir.resolve("moved"));
        Files.move(deleted, moved.resolve(deleted.getFileName()));
        records.updateParentDir(moved);
        assertEquals(moved.resolve(deleted.getFileName()), records.file());
        assertTrue(records.deleteIfExists());
        assertFalse(Files.exists(records.file()));
        assertFalse(records.deleteIfExists());
    }

    @Test
    void flushAndCloseLeaveTheBatchesOnDisk() throws IOException {
        appendTen();
        records.flush();
        records.close();
        assertArrayEquals(bytes(concat(batches.toArray(ByteBuffer[]::new))), Files.readAllBytes(file));
    }

    private FileRecords openCopy(byte[] bytes, int length) throws IOException {
        Path copy = dir.resolve("copy-" + length + "-" + System.nanoTime() + ".log");
        Files.write(copy, java.util.Arrays.copyOf(bytes, length));
        return FileRecords.open(copy, true, 0, false);
    }

    private static List<Integer> positions(FileSlice slice) {
        List<Integer> positions = new ArrayList<>();
        slice.batches().forEach(b -> positions.add(b.position()));
        return positions;
    }

    private static byte[] readAll(FileSlice slice) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(slice.sizeInBytes());
        slice.readInto(buffer, 0);
        return buffer.array();
    }
}
