package io.krabka.kernel.restore;

import static io.krabka.kernel.restore.TestSegment.T0;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.record.Compression;
import io.krabka.kernel.record.CompressionType;
import io.krabka.kernel.record.ControlRecordType;
import io.krabka.kernel.record.RecordBatch;
import io.krabka.kernel.restore.CorruptBatchException.Reason;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.OptionalLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The verify stage over segments the kernel's own writer builds, clean and with each kind of damage. */
class SegmentVerifierTest {

    private static final String KEY = "topic-0/00000000000000000100.log";
    private static final long PID = 4_000L;
    private static final short EPOCH = 2;

    private final SegmentVerifier verifier = new SegmentVerifier();
    private final List<VerifiedBatch> visited = new ArrayList<>();
    private final List<byte[]> visitedBytes = new ArrayList<>();

    /** Every codec, an idempotent and a transactional producer, a marker, and a compaction gap before the last. */
    private static TestSegment mixed() {
        return new TestSegment()
                .records(Compression.NONE, 100, 5, T0)
                .records(Compression.of(CompressionType.GZIP), 105, 7, T0 + 10)
                .records(Compression.of(CompressionType.SNAPPY), 112, 3, T0 + 20)
                .records(Compression.of(CompressionType.LZ4), 115, 9, T0 + 90_000)
                .records(Compression.of(CompressionType.ZSTD), 124, 6, T0 + 40)
                .producer(130, 4, T0 + 50, PID, EPOCH, 17, false)
                .producer(134, 2, T0 + 60, PID + 1, EPOCH, 0, true)
                .marker(136, T0 + 70, PID + 1, EPOCH, ControlRecordType.COMMIT)
                .records(Compression.NONE, 150, 2, T0 + 80);
    }

    private VerifiedSegment verify(byte[] segment, OptionalLong declared, long baseOffset)
            throws IOException, RestoreIntegrityException {
        return verifier.verify(
                new SegmentObject(KEY, declared, baseOffset), new ByteArrayInputStream(segment), (batch, bytes) -> {
                    visited.add(batch);
                    byte[] copy = new byte[bytes.remaining()];
                    bytes.get(copy);
                    visitedBytes.add(copy);
                });
    }

    private VerifiedSegment verify(byte[] segment, OptionalLong declared)
            throws IOException, RestoreIntegrityException {
        return verify(segment, declared, 100);
    }

    private <E extends RestoreIntegrityException> E fails(Class<E> type, byte[] segment, OptionalLong declared) {
        return assertThrows(type, () -> verify(segment, declared));
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void aCleanSegmentGivesItsTrueEndOffsetMaxTimestampAndCounts(boolean sizeDeclared) throws Exception {
        TestSegment segment = mixed();
        byte[] bytes = segment.bytes();
        VerifiedSegment result = verify(bytes, sizeDeclared ? OptionalLong.of(bytes.length) : OptionalLong.empty());

        assertEquals(
                new VerifiedSegment(
                        KEY,
                        9,
                        5 + 7 + 3 + 9 + 6 + 4 + 2 + 1 + 2,
                        OptionalLong.of(100),
                        OptionalLong.of(151),
                        T0 + 90_008,
                        bytes.length),
                result);
        assertEquals(9, visited.size());
        for (int n = 0; n < 9; n++) {
            assertEquals(segment.position(n), visited.get(n).position(), "batch " + n);
            assertEquals(segment.size(n), visited.get(n).sizeInBytes(), "batch " + n);
            assertArrayEquals(
                    Arrays.copyOfRange(bytes, segment.position(n), segment.position(n) + segment.size(n)),
                    visitedBytes.get(n),
                    "the visitor gets batch " + n + " byte for byte");
        }
        assertEquals(
                new VerifiedBatch(
                        segment.position(3),
                        segment.size(3),
                        115,
                        123,
                        9,
                        T0 + 90_008,
                        3,
                        RecordBatch.NO_PRODUCER_ID,
                        RecordBatch.NO_PRODUCER_EPOCH,
                        RecordBatch.NO_SEQUENCE,
                        RecordBatch.NO_SEQUENCE,
                        false,
                        false),
                visited.get(3));
        assertEquals(
                new VerifiedBatch(
                        segment.position(5),
                        segment.size(5),
                        130,
                        133,
                        4,
                        T0 + 53,
                        4,
                        PID,
                        EPOCH,
                        17,
                        20,
                        false,
                        false),
                visited.get(5));
        VerifiedBatch transactional = visited.get(6);
        assertTrue(transactional.transactional() && !transactional.control());
        VerifiedBatch marker = visited.get(7);
        assertEquals(136, marker.lastOffset());
        assertTrue(marker.transactional() && marker.control());
        assertEquals(PID + 1, marker.producerId());
    }

    @Test
    void theVisitorGetsReadOnlyBytes() throws Exception {
        byte[] bytes = mixed().bytes();
        verifier.verify(
                new SegmentObject(KEY, OptionalLong.empty(), 100), new ByteArrayInputStream(bytes), (batch, view) -> {
                    assertTrue(view.isReadOnly());
                    assertEquals(0, view.position());
                    assertEquals(batch.sizeInBytes(), view.limit());
                    assertThrows(ReadOnlyBufferException.class, () -> view.put(0, (byte) 1));
                });
    }

    @Test
    void aVisitorFailureStopsTheScan() {
        byte[] bytes = mixed().bytes();
        IOException refused = new IOException("disk full");
        List<Long> seen = new ArrayList<>();
        IOException thrown = assertThrows(
                IOException.class,
                () -> verifier.verify(
                        new SegmentObject(KEY, OptionalLong.empty(), 100),
                        new ByteArrayInputStream(bytes),
                        (batch, view) -> {
                            seen.add(batch.baseOffset());
                            if (batch.baseOffset() == 112) {
                                throw refused;
                            }
                        }));
        assertSame(refused, thrown);
        assertEquals(List.of(100L, 105L, 112L), seen);
    }

    @ParameterizedTest
    @ValueSource(
            ints = {
                RecordBatch.ATTRIBUTES_OFFSET,
                RecordBatch.LAST_OFFSET_DELTA_OFFSET,
                RecordBatch.MAX_TIMESTAMP_OFFSET,
                RecordBatch.PRODUCER_ID_OFFSET,
                RecordBatch.RECORDS_COUNT_OFFSET,
                RecordBatch.RECORD_BATCH_OVERHEAD + 5
            })
    void aFlippedCoveredByteFailsTheChecksumAtItsBatch(int offsetInBatch) {
        TestSegment segment = mixed();
        byte[] bytes = segment.bytes();
        long stored = ByteBuffer.wrap(bytes).getInt(segment.position(2) + RecordBatch.CRC_OFFSET) & 0xffffffffL;
        bytes[segment.position(2) + offsetInBatch] ^= 0x10;

        ChecksumMismatchException e = fails(ChecksumMismatchException.class, bytes, OptionalLong.of(bytes.length));
        assertEquals(KEY, e.key());
        assertEquals(segment.position(2), e.position());
        assertEquals(stored, e.expected());
        assertTrue(e.computed() != stored);
        assertTrue(e.getMessage().startsWith(KEY + " at byte " + segment.position(2) + ": "), e.getMessage());
        assertEquals(2, visited.size(), "nothing from the failing batch on is visited");
    }

    @Test
    void theLastByteOfACompressedBatchIsCovered() {
        TestSegment segment = mixed();
        byte[] bytes = segment.bytes();
        bytes[segment.position(4) + segment.size(4) - 1] ^= 0x01;
        ChecksumMismatchException e = fails(ChecksumMismatchException.class, bytes, OptionalLong.empty());
        assertEquals(segment.position(4), e.position());
    }

    @Test
    void theLeaderEpochLiesOutsideTheChecksumAsInKafka() throws Exception {
        TestSegment segment = mixed();
        byte[] bytes = segment.bytes();
        ByteBuffer.wrap(bytes).putInt(segment.position(1) + RecordBatch.PARTITION_LEADER_EPOCH_OFFSET, 9);
        verify(bytes, OptionalLong.empty());
        assertEquals(9, visited.get(1).partitionLeaderEpoch());
    }

    @Test
    void aStreamEndingInsideABatchBodyIsTruncatedThere() {
        TestSegment segment = mixed();
        int cut = segment.position(4) + 70;
        TruncatedSegmentException e =
                fails(TruncatedSegmentException.class, Arrays.copyOf(segment.bytes(), cut), OptionalLong.empty());
        assertEquals(segment.position(4), e.position());
        assertEquals(segment.position(4) + segment.size(4), e.declared(), "the batch's length field declares its end");
        assertEquals(cut, e.available());
        assertEquals(4, visited.size());
    }

    @Test
    void aStreamEndingInsideAHeaderIsTruncatedAtThatBatch() {
        TestSegment segment = mixed();
        int afterLength = segment.position(1) + 20;
        TruncatedSegmentException e = fails(
                TruncatedSegmentException.class, Arrays.copyOf(segment.bytes(), afterLength), OptionalLong.empty());
        assertEquals(segment.position(1), e.position());
        assertEquals(segment.position(1) + segment.size(1), e.declared());

        int beforeLength = segment.position(1) + 5;
        e = fails(TruncatedSegmentException.class, Arrays.copyOf(segment.bytes(), beforeLength), OptionalLong.empty());
        assertEquals(segment.position(1), e.position());
        assertEquals(segment.position(1) + RecordBatch.RECORD_BATCH_OVERHEAD, e.declared(), "at least a header");
        assertEquals(beforeLength, e.available());
    }

    @Test
    void aOneByteStreamIsTruncatedAtByteZero() {
        TruncatedSegmentException e = fails(TruncatedSegmentException.class, new byte[] {0}, OptionalLong.empty());
        assertEquals(0, e.position());
        assertEquals(RecordBatch.RECORD_BATCH_OVERHEAD, e.declared());
        assertEquals(1, e.available());
    }

    @Test
    void aStreamShorterThanDeclaredAtABatchBoundaryIsTruncated() {
        TestSegment segment = mixed();
        byte[] bytes = segment.bytes();
        int end = segment.position(6);
        TruncatedSegmentException e =
                fails(TruncatedSegmentException.class, Arrays.copyOf(bytes, end), OptionalLong.of(bytes.length));
        assertEquals(end, e.position());
        assertEquals(bytes.length, e.declared());
        assertEquals(end, e.available());
        assertTrue(e.getMessage().contains("truncated"), e.getMessage());
    }

    @Test
    void aStreamShorterThanDeclaredInsideABatchNamesTheDeclaredSize() {
        TestSegment segment = mixed();
        byte[] bytes = segment.bytes();
        int cut = segment.position(3) + 100;
        TruncatedSegmentException e =
                fails(TruncatedSegmentException.class, Arrays.copyOf(bytes, cut), OptionalLong.of(bytes.length));
        assertEquals(segment.position(3), e.position());
        assertEquals(bytes.length, e.declared());
        assertEquals(cut, e.available());
    }

    @Test
    void aStreamLongerThanDeclaredAtABatchBoundaryIsCountedToItsEnd() {
        TestSegment segment = mixed();
        byte[] bytes = segment.bytes();
        int declared = segment.position(5);
        TruncatedSegmentException e = fails(TruncatedSegmentException.class, bytes, OptionalLong.of(declared));
        assertEquals(declared, e.position());
        assertEquals(declared, e.declared());
        assertEquals(bytes.length, e.available());
        assertTrue(e.getMessage().contains("longer than declared"), e.getMessage());
        assertEquals(5, visited.size());
    }

    @Test
    void aDeclaredSizeEndingInsideABatchOfALongerStreamFailsAtThatBatch() {
        TestSegment segment = mixed();
        byte[] bytes = segment.bytes();
        int declared = segment.position(5) + 30;
        TruncatedSegmentException e = fails(TruncatedSegmentException.class, bytes, OptionalLong.of(declared));
        assertEquals(segment.position(5), e.position());
        assertEquals(declared, e.declared());
        assertEquals(bytes.length, e.available());
        assertEquals(5, visited.size(), "the batch crossing the declared size is not visited");
    }

    @Test
    void anObjectOfItsDeclaredSizeCutInsideABatchNamesTheBatchEnd() {
        TestSegment segment = mixed();
        int cut = segment.position(2) + 64;
        TruncatedSegmentException e =
                fails(TruncatedSegmentException.class, Arrays.copyOf(segment.bytes(), cut), OptionalLong.of(cut));
        assertEquals(segment.position(2), e.position());
        assertEquals(segment.position(2) + segment.size(2), e.declared());
        assertEquals(cut, e.available());
    }

    @ParameterizedTest
    @ValueSource(longs = {104, 103, 50})
    void aBatchNotAboveThePreviousLastOffsetIsCorrupt(long baseOffset) {
        TestSegment segment =
                new TestSegment().records(Compression.NONE, 100, 5, T0).records(Compression.NONE, baseOffset, 3, T0);
        CorruptBatchException e = fails(CorruptBatchException.class, segment.bytes(), OptionalLong.empty());
        assertEquals(Reason.OFFSETS_NOT_INCREASING, e.reason());
        assertEquals(segment.position(1), e.position());
        assertTrue(e.getMessage().contains(KEY + " at byte " + segment.position(1)), e.getMessage());
    }

    @Test
    void aFirstBatchBelowTheSegmentBaseIsCorrupt() {
        byte[] bytes = new TestSegment().records(Compression.NONE, 99, 5, T0).bytes();
        CorruptBatchException e = fails(CorruptBatchException.class, bytes, OptionalLong.empty());
        assertEquals(Reason.BELOW_SEGMENT_BASE, e.reason());
        assertEquals(0, e.position());
    }

    @Test
    void aFirstBatchAboveTheSegmentBaseIsFine() throws Exception {
        byte[] bytes = new TestSegment().records(Compression.NONE, 140, 5, T0).bytes();
        assertEquals(OptionalLong.of(144), verify(bytes, OptionalLong.empty()).lastOffset());
    }

    @Test
    void anOffsetBeyondTheSegmentsIndexRangeIsCorrupt() {
        TestSegment segment = new TestSegment()
                .records(Compression.NONE, 100, 1, T0)
                .records(Compression.NONE, 100L + Integer.MAX_VALUE, 2, T0);
        CorruptBatchException e = fails(CorruptBatchException.class, segment.bytes(), OptionalLong.empty());
        assertEquals(Reason.OFFSET_OUT_OF_SEGMENT_RANGE, e.reason());
        assertEquals(segment.position(1), e.position());
    }

    @ParameterizedTest
    @ValueSource(bytes = {0, 1})
    void aLegacyMagicIsRefused(byte magic) {
        TestSegment segment = mixed();
        byte[] bytes = segment.bytes();
        bytes[segment.position(1) + RecordBatch.MAGIC_OFFSET] = magic;
        CorruptBatchException e = fails(CorruptBatchException.class, bytes, OptionalLong.empty());
        assertEquals(Reason.LEGACY_MAGIC, e.reason());
        assertEquals(segment.position(1), e.position());
    }

    @ParameterizedTest
    @ValueSource(bytes = {3, -1, 100})
    void anUnknownMagicIsCorrupt(byte magic) {
        byte[] bytes = mixed().bytes();
        bytes[RecordBatch.MAGIC_OFFSET] = magic;
        CorruptBatchException e = fails(CorruptBatchException.class, bytes, OptionalLong.empty());
        assertEquals(Reason.UNKNOWN_MAGIC, e.reason());
        assertEquals(0, e.position());
    }

    @ParameterizedTest
    @ValueSource(ints = {48, 0, -1, Integer.MIN_VALUE})
    void aLengthTooSmallForTheHeaderIsCorrupt(int length) {
        TestSegment segment = mixed();
        byte[] bytes = segment.bytes();
        ByteBuffer.wrap(bytes).putInt(segment.position(2) + RecordBatch.LENGTH_OFFSET, length);
        CorruptBatchException e = fails(CorruptBatchException.class, bytes, OptionalLong.empty());
        assertEquals(Reason.LENGTH_BELOW_HEADER, e.reason());
        assertEquals(segment.position(2), e.position());
    }

    @Test
    void aLengthNearTwoGigabytesIsRefusedWithoutReadingIt() {
        byte[] bytes = mixed().bytes();
        ByteBuffer.wrap(bytes).putInt(RecordBatch.LENGTH_OFFSET, Integer.MAX_VALUE);
        assertEquals(
                Reason.LENGTH_ABOVE_CAP,
                fails(CorruptBatchException.class, bytes, OptionalLong.empty()).reason());
    }

    @Test
    void aBatchAboveTheCapIsRefusedAndOneAtItIsRead() throws Exception {
        TestSegment segment =
                new TestSegment().records(Compression.NONE, 100, 1, T0).records(Compression.NONE, 101, 20, T0);
        byte[] bytes = segment.bytes();
        SegmentObject object = new SegmentObject(KEY, OptionalLong.empty(), 100);
        SegmentVerifier capped = new SegmentVerifier(segment.size(1) - 1);
        CorruptBatchException e = assertThrows(
                CorruptBatchException.class,
                () -> capped.verify(object, new ByteArrayInputStream(bytes), (batch, view) -> {}));
        assertEquals(Reason.LENGTH_ABOVE_CAP, e.reason());
        assertEquals(segment.position(1), e.position());
        assertEquals(
                2,
                new SegmentVerifier(segment.size(1))
                        .verify(object, new ByteArrayInputStream(bytes), (batch, view) -> {})
                        .batchCount());
    }

    @Test
    void aNegativeLastOffsetDeltaIsCorrupt() {
        byte[] bytes = mixed().bytes();
        ByteBuffer.wrap(bytes).putInt(RecordBatch.LAST_OFFSET_DELTA_OFFSET, -1);
        TestSegment.resealChecksum(bytes, 0);
        assertEquals(
                Reason.INVALID_OFFSETS,
                fails(CorruptBatchException.class, bytes, OptionalLong.empty()).reason());
    }

    @ParameterizedTest
    @ValueSource(ints = {-1, 6})
    void aRecordCountTheOffsetsCannotHoldIsCorrupt(int count) {
        byte[] bytes = mixed().bytes();
        ByteBuffer.wrap(bytes).putInt(RecordBatch.RECORDS_COUNT_OFFSET, count);
        TestSegment.resealChecksum(bytes, 0);
        assertEquals(
                Reason.INVALID_RECORD_COUNT,
                fails(CorruptBatchException.class, bytes, OptionalLong.empty()).reason());
    }

    @Test
    void aRecordCountBelowTheOffsetsIsACompactedBatch() throws Exception {
        byte[] bytes = mixed().bytes();
        ByteBuffer.wrap(bytes).putInt(RecordBatch.RECORDS_COUNT_OFFSET, 0);
        TestSegment.resealChecksum(bytes, 0);
        VerifiedSegment result = verify(bytes, OptionalLong.empty());
        assertEquals(0, visited.getFirst().recordCount());
        assertEquals(104, visited.getFirst().lastOffset());
        assertEquals(OptionalLong.of(151), result.lastOffset());
        assertEquals(39 - 5, result.recordCount());
    }

    @Test
    void compressionBitsNamingNoCodecAreCorrupt() {
        byte[] bytes = mixed().bytes();
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        buffer.putShort(RecordBatch.ATTRIBUTES_OFFSET, (short) (buffer.getShort(RecordBatch.ATTRIBUTES_OFFSET) | 7));
        TestSegment.resealChecksum(bytes, 0);
        assertEquals(
                Reason.UNKNOWN_COMPRESSION,
                fails(CorruptBatchException.class, bytes, OptionalLong.empty()).reason());
    }

    @ParameterizedTest
    @ValueSource(booleans = {true, false})
    void anEmptySegmentHasNoBatchesNoOffsetsAndNoTimestamp(boolean sizeDeclared) throws Exception {
        VerifiedSegment result = verify(new byte[0], sizeDeclared ? OptionalLong.of(0) : OptionalLong.empty());
        assertEquals(
                new VerifiedSegment(KEY, 0, 0, OptionalLong.empty(), OptionalLong.empty(), RecordBatch.NO_TIMESTAMP, 0),
                result);
        assertFalse(result.lastOffset().isPresent());
        assertTrue(visited.isEmpty());
    }

    @Test
    void anEmptyStreamOfADeclaredSizeIsTruncated() {
        TruncatedSegmentException e = fails(TruncatedSegmentException.class, new byte[0], OptionalLong.of(4096));
        assertEquals(0, e.position());
        assertEquals(4096, e.declared());
        assertEquals(0, e.available());
    }

    @Test
    void aCapTooSmallForAHeaderIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new SegmentVerifier(RecordBatch.RECORD_BATCH_OVERHEAD - 1));
    }
}
