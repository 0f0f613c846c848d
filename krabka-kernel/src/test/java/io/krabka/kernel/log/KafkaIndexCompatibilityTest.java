package io.krabka.kernel.log;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka 4.4's own index classes judge the files: they read and sanity-check what Krabka wrote, Krabka reads what
 * they wrote, and both answer every lookup the same.
 */
class KafkaIndexCompatibilityTest {

    private static final long BASE = 4_200L;
    private static final int MAX_INDEX_SIZE = 10_485_760;
    private static final int ENTRIES = 3_000;

    @TempDir
    Path dir;

    @Test
    void kafkaReadsTheOffsetIndexKrabkaWrote() throws IOException {
        Path file = dir.resolve("00000000000000004200.index");
        try (OffsetIndex ours = new OffsetIndex(file, BASE, MAX_INDEX_SIZE, true)) {
            for (int n = 1; n <= ENTRIES; n++) {
                ours.append(BASE + 3L * n, 4_100 * n);
            }
            ours.trimToValidSize();
        }
        var theirs = new org.apache.kafka.storage.internals.log.OffsetIndex(file.toFile(), BASE, MAX_INDEX_SIZE, false);
        try (OffsetIndex ours = new OffsetIndex(file, BASE, MAX_INDEX_SIZE, false)) {
            theirs.sanityCheck();
            assertEquals(ENTRIES, theirs.entries());
            assertEquals(ours.lastOffset(), theirs.lastOffset());
            assertSameOffsetLookups(ours, theirs);
        } finally {
            theirs.close();
        }
    }

    @Test
    void krabkaReadsTheOffsetIndexKafkaWrote() throws IOException {
        Path file = dir.resolve("00000000000000004200.index");
        var theirs = new org.apache.kafka.storage.internals.log.OffsetIndex(file.toFile(), BASE, MAX_INDEX_SIZE, true);
        for (int n = 1; n <= ENTRIES; n++) {
            theirs.append(BASE + 3L * n, 4_100 * n);
        }
        theirs.trimToValidSize();
        theirs.close();
        theirs = new org.apache.kafka.storage.internals.log.OffsetIndex(file.toFile(), BASE, MAX_INDEX_SIZE, false);
        try (OffsetIndex ours = new OffsetIndex(file, BASE, MAX_INDEX_SIZE, false)) {
            ours.sanityCheck();
            ours.checkAllEntries();
            assertEquals(ENTRIES, ours.entries());
            assertSameOffsetLookups(ours, theirs);
        } finally {
            theirs.close();
        }
    }

    @Test
    void bothCountEveryWholeEntryOfAnUntrimmedOffsetIndex() throws IOException {
        Path file = dir.resolve("00000000000000004200.index");
        var theirs = new org.apache.kafka.storage.internals.log.OffsetIndex(file.toFile(), BASE, 800, true);
        theirs.append(BASE + 5, 4_100);
        theirs.append(BASE + 9, 8_200);
        theirs.flush();
        theirs.close(); // Kafka 4 closes without trimming: the log trims before it closes, a crash does not
        theirs = new org.apache.kafka.storage.internals.log.OffsetIndex(file.toFile(), BASE, 800, true);
        try (OffsetIndex ours = new OffsetIndex(file, BASE, 800, true)) {
            assertEquals(theirs.entries(), ours.entries());
            assertEquals(100, ours.entries());
            assertThrows(CorruptIndexException.class, ours::sanityCheck);
        } finally {
            theirs.close();
        }
    }

    @Test
    void kafkaReadsTheTimeIndexKrabkaWrote() throws IOException {
        Path file = dir.resolve("00000000000000004200.timeindex");
        try (TimeIndex ours = new TimeIndex(file, BASE, MAX_INDEX_SIZE, true)) {
            for (int n = 1; n <= ENTRIES; n++) {
                ours.maybeAppend(1_700_000_000_000L + 10L * n, BASE + 3L * n);
            }
            ours.trimToValidSize();
        }
        var theirs = new org.apache.kafka.storage.internals.log.TimeIndex(file.toFile(), BASE, MAX_INDEX_SIZE, false);
        try (TimeIndex ours = new TimeIndex(file, BASE, MAX_INDEX_SIZE, false)) {
            theirs.sanityCheck();
            assertEquals(ENTRIES, theirs.entries());
            assertEquals(ours.lastEntry().timestamp(), theirs.lastEntry().timestamp());
            assertEquals(ours.lastEntry().offset(), theirs.lastEntry().offset());
            assertSameTimeLookups(ours, theirs);
        } finally {
            theirs.close();
        }
    }

    @Test
    void krabkaReadsTheTimeIndexKafkaWrote() throws IOException {
        Path file = dir.resolve("00000000000000004200.timeindex");
        var theirs = new org.apache.kafka.storage.internals.log.TimeIndex(file.toFile(), BASE, MAX_INDEX_SIZE, true);
        for (int n = 1; n <= ENTRIES; n++) {
            theirs.maybeAppend(1_700_000_000_000L + 10L * n, BASE + 3L * n);
        }
        theirs.trimToValidSize();
        theirs.close();
        theirs = new org.apache.kafka.storage.internals.log.TimeIndex(file.toFile(), BASE, MAX_INDEX_SIZE, false);
        try (TimeIndex ours = new TimeIndex(file, BASE, MAX_INDEX_SIZE, false)) {
            ours.sanityCheck();
            ours.checkAllEntries();
            assertSameTimeLookups(ours, theirs);
        } finally {
            theirs.close();
        }
    }

    @Test
    void bothWriteTheSameTimeIndexBytesForTheSameAppends() throws IOException {
        Path oursFile = dir.resolve("ours.timeindex");
        Path theirsFile = dir.resolve("theirs.timeindex");
        var theirs = new org.apache.kafka.storage.internals.log.TimeIndex(theirsFile.toFile(), BASE, 1_200, true);
        try (TimeIndex ours = new TimeIndex(oursFile, BASE, 1_200, true)) {
            long[][] appends = {{-1, BASE}, {100, BASE + 1}, {100, BASE + 2}, {150, BASE + 2}, {200, BASE + 7}};
            for (long[] append : appends) {
                ours.maybeAppend(append[0], append[1]);
                theirs.maybeAppend(append[0], append[1]);
            }
            ours.truncateTo(BASE + 7);
            theirs.truncateTo(BASE + 7);
            ours.maybeAppend(300, BASE + 9, true);
            theirs.maybeAppend(300, BASE + 9, true);
            ours.trimToValidSize();
            theirs.trimToValidSize();
        } finally {
            theirs.close();
        }
        assertArrayEquals(Files.readAllBytes(theirsFile), Files.readAllBytes(oursFile));
        assertEquals(36, Files.size(oursFile));
    }

    @Test
    void transactionIndexesAreReadBothWays() throws IOException {
        List<AbortedTxn> txns = List.of(
                new AbortedTxn(7, 4_200, 4_210, 4_200),
                new AbortedTxn(8, 4_205, 4_230, 4_211),
                new AbortedTxn(7, 4_231, 4_240, 4_240));
        Path oursFile = dir.resolve("ours.txnindex");
        try (TransactionIndex ours = new TransactionIndex(BASE, oursFile)) {
            for (AbortedTxn txn : txns) {
                ours.append(txn);
            }
        }
        var theirs = new org.apache.kafka.storage.internals.log.TransactionIndex(BASE, oursFile.toFile());
        theirs.sanityCheck();
        assertEquals(
                txns,
                theirs.allAbortedTxns().stream()
                        .map(t -> new AbortedTxn(t.producerId(), t.firstOffset(), t.lastOffset(), t.lastStableOffset()))
                        .toList());
        theirs.close();

        Path theirsFile = dir.resolve("theirs.txnindex");
        theirs = new org.apache.kafka.storage.internals.log.TransactionIndex(BASE, theirsFile.toFile());
        for (AbortedTxn txn : txns) {
            theirs.append(new org.apache.kafka.common.message.AbortedTxn()
                    .setProducerId(txn.producerId())
                    .setFirstOffset(txn.firstOffset())
                    .setLastOffset(txn.lastOffset())
                    .setLastStableOffset(txn.lastStableOffset()));
        }
        theirs.close();
        assertArrayEquals(Files.readAllBytes(theirsFile), Files.readAllBytes(oursFile));
        try (TransactionIndex ours = new TransactionIndex(BASE, theirsFile)) {
            ours.sanityCheck();
            assertEquals(txns, ours.allAbortedTxns());
        }
    }

    private static void assertSameOffsetLookups(
            OffsetIndex ours, org.apache.kafka.storage.internals.log.OffsetIndex theirs) {
        Random random = new Random(7);
        for (int probe = 0; probe < 20_000; probe++) {
            long target = BASE - 10 + random.nextInt(3 * ENTRIES + 20);
            OffsetPosition mine = ours.lookup(target);
            var kafka = theirs.lookup(target);
            assertEquals(kafka.offset(), mine.offset(), "target " + target);
            assertEquals(kafka.position(), mine.position(), "target " + target);
        }
    }

    private static void assertSameTimeLookups(TimeIndex ours, org.apache.kafka.storage.internals.log.TimeIndex theirs) {
        Random random = new Random(11);
        for (int probe = 0; probe < 20_000; probe++) {
            long target = 1_700_000_000_000L - 20 + random.nextInt(10 * ENTRIES + 40);
            TimestampOffset mine = ours.lookup(target);
            var kafka = theirs.lookup(target);
            assertEquals(kafka.timestamp(), mine.timestamp(), "target " + target);
            assertEquals(kafka.offset(), mine.offset(), "target " + target);
        }
    }
}
