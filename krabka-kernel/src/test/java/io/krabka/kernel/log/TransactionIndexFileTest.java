package io.krabka.kernel.log;

import static io.krabka.kernel.log.IndexBytes.rawTxn;
import static io.krabka.kernel.log.IndexBytes.txnIndex;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TransactionIndexFileTest {

    private static final long START = 100L;
    private static final AbortedTxn A = new AbortedTxn(1, 100, 105, 110);
    private static final AbortedTxn B = new AbortedTxn(2, 106, 120, 115);
    private static final AbortedTxn C = new AbortedTxn(3, 110, 130, 140);

    @TempDir
    Path dir;

    private Path file() {
        return dir.resolve("00000000000000000100.txnindex");
    }

    @Test
    void theFileIsMadeByTheFirstAppendInKafkasLayout() throws IOException {
        try (TransactionIndex index = new TransactionIndex(START, file())) {
            assertTrue(index.isEmpty());
            assertEquals(List.of(), index.allAbortedTxns());
            assertEquals(new TxnIndexSearchResult(List.of(), false), index.collectAbortedTxns(0, Long.MAX_VALUE));
            assertFalse(Files.exists(file()));
            index.append(A);
            index.append(B);
            index.flush();
            assertEquals(2, index.entries());
            assertEquals(B, index.entry(1));
            assertEquals(new TxnIndexSearchResult(List.of(A, B), true), index.collectAbortedTxns(100, 115));
        }
        assertArrayEquals(txnIndex(A, B).array(), Files.readAllBytes(file()));
    }

    @Test
    void lastOffsetsMustIncreaseAcrossAReopen() throws IOException {
        try (TransactionIndex index = new TransactionIndex(START, file())) {
            index.append(B);
            assertThrows(IllegalArgumentException.class, () -> index.append(new AbortedTxn(9, 110, 120, 130)));
            assertThrows(IllegalArgumentException.class, () -> index.append(A));
        }
        try (TransactionIndex reopened = new TransactionIndex(START, file())) {
            reopened.sanityCheck();
            assertThrows(IllegalArgumentException.class, () -> reopened.append(A));
            reopened.append(C);
            assertEquals(List.of(B, C), reopened.allAbortedTxns());
        }
    }

    @Test
    void aLastOffsetBelowTheSegmentStartIsRefused() throws IOException {
        try (TransactionIndex index = new TransactionIndex(200, file())) {
            assertThrows(IllegalArgumentException.class, () -> index.append(A));
        }
    }

    @Test
    void truncateToRemovesTheTransactionsEndingAtOrAboveTheOffset() throws IOException {
        try (TransactionIndex index = new TransactionIndex(START, file())) {
            index.append(A);
            index.append(B);
            index.append(C);
            index.truncateTo(131);
            assertEquals(3, index.entries());
            index.truncateTo(120);
            assertEquals(List.of(A), index.allAbortedTxns());
            assertEquals(34, Files.size(file()));
            index.append(new AbortedTxn(4, 107, 108, 109));
            index.reset();
            assertTrue(index.isEmpty());
            assertEquals(0, Files.size(file()));
            index.append(A);
            assertEquals(List.of(A), index.allAbortedTxns());
        }
    }

    @Test
    void sanityCheckFindsATornTailAndUnknownVersions() throws IOException {
        Files.write(
                file(), IndexBytes.concat(txnIndex(A), ByteBuffer.allocate(10)).array());
        try (TransactionIndex torn = new TransactionIndex(START, file())) {
            assertEquals(List.of(A), torn.allAbortedTxns());
            CorruptIndexException e = assertThrows(CorruptIndexException.class, torn::sanityCheck);
            assertEquals(file().toString(), e.source());
            assertEquals(34, e.bytePosition());
        }
        Files.write(
                file(),
                IndexBytes.concat(txnIndex(A), rawTxn((short) 1, 2, 110, 120, 106))
                        .array());
        try (TransactionIndex future = new TransactionIndex(START, file())) {
            assertEquals(
                    34,
                    assertThrows(CorruptIndexException.class, future::sanityCheck)
                            .bytePosition());
        }
        Files.write(file(), txnIndex(A).array());
        try (TransactionIndex laterSegment = new TransactionIndex(106, file())) {
            assertEquals(
                    18,
                    assertThrows(CorruptIndexException.class, laterSegment::sanityCheck)
                            .bytePosition());
        }
    }

    @Test
    void renamedAndDeletedUnderTheNewName() throws IOException {
        TransactionIndex index = new TransactionIndex(START, file());
        Path notYetMade = dir.resolve("00000000000000000100.txnindex.swap");
        index.renameTo(notYetMade);
        assertEquals(notYetMade, index.file());
        index.append(A);
        assertTrue(Files.exists(notYetMade));
        Path deleted = dir.resolve("00000000000000000100.txnindex" + LogFileUtils.DELETED_FILE_SUFFIX);
        index.renameTo(deleted);
        assertEquals(List.of(A), index.allAbortedTxns());
        assertTrue(index.deleteIfExists());
        assertFalse(Files.exists(deleted));
        assertTrue(index.isEmpty());
    }

    @Test
    void aClosedIndexReopensItsFileWhenUsedAgain() throws IOException {
        TransactionIndex index = new TransactionIndex(START, file());
        index.append(A);
        index.close();
        assertEquals(List.of(A), index.allAbortedTxns());
        index.append(B);
        index.close();
        try (TransactionIndex reopened = new TransactionIndex(START, file())) {
            assertEquals(List.of(A, B), reopened.allAbortedTxns());
        }
    }

    @Test
    void anIndexOverBytesHasNoFileToChange() {
        TransactionIndex index = new TransactionIndex(txnIndex(A), START, "remote");
        assertThrows(IllegalStateException.class, () -> index.append(B));
        assertThrows(IllegalStateException.class, index::file);
        assertEquals(List.of(A), index.allAbortedTxns());
    }
}
