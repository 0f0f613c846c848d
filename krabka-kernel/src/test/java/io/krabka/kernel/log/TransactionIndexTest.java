package io.krabka.kernel.log;

import static io.krabka.kernel.log.IndexBytes.rawTxn;
import static io.krabka.kernel.log.IndexBytes.txnIndex;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TransactionIndexTest {

    private static final long START = 100L;

    // A began in the previous segment; the others are this segment's aborts, by ascending last offset.
    private static final AbortedTxn A = new AbortedTxn(1, 90, 105, 90);
    private static final AbortedTxn B = new AbortedTxn(2, 110, 120, 106);
    private static final AbortedTxn C = new AbortedTxn(3, 115, 130, 110);
    private static final AbortedTxn D = new AbortedTxn(4, 140, 150, 151);
    private static final AbortedTxn E = new AbortedTxn(5, 152, 160, 161);

    private final TransactionIndex index = new TransactionIndex(txnIndex(A, B, C, D, E), START, "test.txnindex");

    @Test
    void decodesEveryEntry() {
        assertEquals(5, index.entries());
        assertEquals(5 * 34, index.sizeInBytes());
        assertEquals(List.of(A, B, C, D, E), index.allAbortedTxns());
        assertEquals(C, index.entry(2));
    }

    @Test
    void collectsTransactionsOverlappingTheRangeAndStopsAtTheFirstLastStableOffsetReachingItsEnd() {
        assertEquals(new TxnIndexSearchResult(List.of(A), true), index.collectAbortedTxns(100, 110));
        assertEquals(new TxnIndexSearchResult(List.of(B), true), index.collectAbortedTxns(106, 111));
        assertEquals(new TxnIndexSearchResult(List.of(A, B, C), true), index.collectAbortedTxns(100, 116));
    }

    @Test
    void lastOffsetEqualToTheFetchOffsetOverlaps() {
        assertEquals(new TxnIndexSearchResult(List.of(A), true), index.collectAbortedTxns(105, 106));
    }

    @Test
    void firstOffsetEqualToTheUpperBoundDoesNotOverlap() {
        assertEquals(new TxnIndexSearchResult(List.of(C), true), index.collectAbortedTxns(121, 140));
    }

    @Test
    void searchThatNoLastStableOffsetEndsIsIncomplete() {
        assertEquals(new TxnIndexSearchResult(List.of(E), false), index.collectAbortedTxns(155, 1_000));
        assertEquals(new TxnIndexSearchResult(List.of(), false), index.collectAbortedTxns(161, 1_000));
    }

    @Test
    void laterOverlappingEntriesAreNotCollectedOnceTheSearchIsComplete() {
        TransactionIndex stops = new TransactionIndex(
                txnIndex(new AbortedTxn(1, 100, 101, 200), new AbortedTxn(2, 102, 103, 102)), START, "stops.txnindex");
        assertEquals(
                new TxnIndexSearchResult(List.of(new AbortedTxn(1, 100, 101, 200)), true),
                stops.collectAbortedTxns(100, 150));
    }

    @Test
    void emptyIndexCollectsNothingAndIsIncomplete() {
        TransactionIndex empty = new TransactionIndex(ByteBuffer.allocate(0), START, "empty.txnindex");
        assertEquals(0, empty.entries());
        assertEquals(new TxnIndexSearchResult(List.of(), false), empty.collectAbortedTxns(0, Long.MAX_VALUE));
    }

    @Test
    void decodesAMappedFile(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("00000000000000000100.txnindex");
        Files.write(file, txnIndex(A, B).array());
        try (MappedFile mapped = MappedFile.open(file)) {
            TransactionIndex fromFile = new TransactionIndex(mapped.buffer(), START, file.toString());
            assertEquals(List.of(A, B), fromFile.allAbortedTxns());
        }
    }

    @Test
    void sizeNotAMultipleOfTheEntrySizeIsCorrupt() {
        assertCorrupt(
                IndexBytes.concat(txnIndex(A), ByteBuffer.allocate(1)),
                34,
                "size 35 bytes is not a multiple of the entry size 34");
    }

    @Test
    void unknownVersionIsCorrupt() {
        assertCorrupt(
                IndexBytes.concat(txnIndex(A), rawTxn((short) 1, 2, 110, 120, 106)),
                34,
                "unknown aborted transaction version 1, the only known version is 0");
        assertCorrupt(
                rawTxn((short) -1, 2, 110, 120, 106),
                0,
                "unknown aborted transaction version -1, the only known version is 0");
    }

    @Test
    void firstOffsetAboveLastOffsetIsCorrupt() {
        assertCorrupt(rawTxn((short) 0, 2, 121, 120, 106), 18, "last offset 120 is below the first offset 121");
    }

    @Test
    void lastOffsetBelowTheSegmentStartIsCorruptAsInKafkasSanityCheck() {
        assertCorrupt(rawTxn((short) 0, 2, 50, 99, 50), 18, "last offset 99 is below the segment's start offset 100");
    }

    @Test
    void negativeOffsetsAreCorrupt() {
        assertCorrupt(rawTxn((short) 0, 2, -1, 120, 106), 10, "first offset -1 is negative");
        assertCorrupt(rawTxn((short) 0, 2, 110, 120, -5), 26, "last stable offset -5 is negative");
    }

    @Test
    void lastOffsetGoingBackwardsIsCorrupt() {
        assertCorrupt(txnIndex(A, C, B), 34 * 2 + 18, "last offset 120 goes backwards from the previous entry's 130");
    }

    private static void assertCorrupt(ByteBuffer bytes, long bytePosition, String detail) {
        CorruptIndexException e =
                assertThrows(CorruptIndexException.class, () -> new TransactionIndex(bytes, START, "bad.txnindex"));
        assertEquals("Corrupt index bad.txnindex at byte " + bytePosition + ": " + detail, e.getMessage());
        assertEquals(bytePosition, e.bytePosition());
    }
}
