package io.krabka.kernel.log.cleaner;

import static io.krabka.kernel.log.cleaner.CleanerLogs.append;
import static io.krabka.kernel.log.cleaner.CleanerLogs.batches;
import static io.krabka.kernel.log.cleaner.CleanerLogs.compacted;
import static io.krabka.kernel.log.cleaner.CleanerLogs.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.log.AbortedTxn;
import io.krabka.kernel.log.AppendOrigin;
import io.krabka.kernel.log.ProducerAppendInfo;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.log.cleaner.CleanerLogs.Entry;
import io.krabka.kernel.record.Compression;
import io.krabka.kernel.record.CompressionType;
import io.krabka.kernel.record.ControlRecordType;
import io.krabka.kernel.record.RecordBatch;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** The cleaner on real segment files: what it keeps, what it drops, and what the log looks like after. */
class CleanerTest {

    private static final int MAP_MEMORY = 1024 * 1024;

    @TempDir
    Path dir;

    @Test
    void eachKeyKeepsItsLatestValueAtItsOffset() throws Exception {
        CleanerLogs logs = new CleanerLogs(dir);
        UnifiedLog log = logs.open("topic-0", compacted());
        Map<String, Entry> latest = new LinkedHashMap<>();
        for (int round = 0; round < 5; round++) {
            List<String> keysAndValues = new ArrayList<>();
            for (int key = 0; key < 10; key++) {
                if ((key + round) % 3 != 0) {
                    keysAndValues.add("k" + key);
                    keysAndValues.add("v" + round + "-" + key);
                }
            }
            long base = log.logEndOffset();
            append(log, logs.keyed(keysAndValues.toArray(String[]::new)));
            for (int i = 0; i < keysAndValues.size(); i += 2) {
                latest.put(
                        keysAndValues.get(i), new Entry(base + i / 2, keysAndValues.get(i), keysAndValues.get(i + 1)));
            }
            log.roll();
        }
        append(log, logs.keyed("k0", "active", "k1", "active"));
        long activeBase = log.activeSegment().baseOffset();

        long next = logs.clean(logs.cleaner(MAP_MEMORY), log, 0);

        assertEquals(activeBase, next, "cleaned up to the active segment");
        List<Entry> expected = latest.values().stream()
                .sorted((a, b) -> Long.compare(a.offset(), b.offset()))
                .toList();
        List<Entry> cleaned =
                read(log).stream().filter(e -> e.offset() < activeBase).toList();
        assertEquals(expected, cleaned);
        assertEquals(2, log.numberOfSegments(), "the five small segments grouped into one");
        assertEquals(activeBase + 2, log.logEndOffset(), "no offset moved");
        assertEquals(
                List.of(new Entry(activeBase, "k0", "active"), new Entry(activeBase + 1, "k1", "active")),
                read(log).stream().filter(e -> e.offset() >= activeBase).toList(),
                "the active segment is not cleaned");
    }

    @Test
    void aRecordWithoutAKeyGoes() throws Exception {
        CleanerLogs logs = new CleanerLogs(dir);
        // Written while the topic was not compacted: a compacted one refuses records without keys.
        UnifiedLog log = logs.open("topic-0", CleanerLogs.compacted("cleanup.policy", "delete"));
        append(log, logs.keyed("k1", "a", (String) null, "no key", "k2", "b"));
        log.roll();
        append(log, logs.keyed("k3", "c"));
        log.updateConfig(compacted());

        logs.clean(logs.cleaner(MAP_MEMORY), log, 0);

        assertEquals(List.of(new Entry(0, "k1", "a"), new Entry(2, "k2", "b"), new Entry(3, "k3", "c")), read(log));
    }

    @Test
    void aTombstoneStaysUntilItsDeleteHorizonHasPassed() throws Exception {
        CleanerLogs logs = new CleanerLogs(dir);
        UnifiedLog log = logs.open("topic-0", compacted("delete.retention.ms", 1000L));
        Cleaner cleaner = logs.cleaner(MAP_MEMORY);
        append(log, logs.keyed("k1", "a", "k2", "b"));
        log.roll();
        append(log, logs.keyed("k1", null));
        log.roll();
        append(log, logs.keyed("k3", "c"));
        long cleanedAt = logs.time.millis();

        long next = logs.clean(cleaner, log, 0);

        assertEquals(List.of(new Entry(1, "k2", "b"), new Entry(2, "k1", "null"), new Entry(3, "k3", "c")), read(log));
        RecordBatch tombstone = batchHolding(log, 2);
        assertEquals(
                OptionalLong.of(cleanedAt + 1000), tombstone.deleteHorizonMs(), "the horizon set when first cleaned");
        assertEquals(cleanedAt, tombstone.records(1 << 20).getFirst().timestamp(), "the tombstone keeps its time");

        logs.time.sleep(999);
        log.roll();
        append(log, logs.keyed("k4", "d"));
        next = logs.clean(cleaner, log, next);
        assertTrue(read(log).contains(new Entry(2, "k1", "null")), "kept until the horizon");

        logs.time.sleep(1);
        log.roll();
        append(log, logs.keyed("k5", "e"));
        logs.clean(cleaner, log, next);
        assertEquals(
                List.of(
                        new Entry(1, "k2", "b"),
                        new Entry(3, "k3", "c"),
                        new Entry(4, "k4", "d"),
                        new Entry(5, "k5", "e")),
                read(log));
    }

    @Test
    void anAbortedTransactionGoesAndItsMarkerFollowsOnceNothingIsLeftOfIt() throws Exception {
        CleanerLogs logs = new CleanerLogs(dir);
        UnifiedLog log = logs.open("topic-0", compacted("delete.retention.ms", 1000L));
        Cleaner cleaner = logs.cleaner(MAP_MEMORY);
        long aborting = 1000;
        long committing = 2000;
        append(
                log,
                logs.producerBatch(Compression.NONE, aborting, (short) 0, 0, true, "k1", "aborted", "k2", "aborted"));
        append(log, logs.keyed("k3", "plain"));
        logs.appendMarker(log, aborting, (short) 0, ControlRecordType.ABORT);
        append(log, logs.producerBatch(Compression.NONE, committing, (short) 0, 0, true, "k1", "committed"));
        logs.appendMarker(log, committing, (short) 0, ControlRecordType.COMMIT);
        // The aborting producer goes on with a committed transaction: its aborted batch is no longer its last.
        append(log, logs.producerBatch(Compression.NONE, aborting, (short) 0, 2, true, "k4", "later"));
        logs.appendMarker(log, aborting, (short) 0, ControlRecordType.COMMIT);
        log.roll();
        append(log, logs.keyed("k5", "active"));
        List<AbortedTxn> aborted = log.collectAbortedTransactions(0, 8);
        assertEquals(
                List.of(aborting), aborted.stream().map(AbortedTxn::producerId).toList());

        long next = logs.clean(cleaner, log, 0);

        assertEquals(
                List.of(
                        new Entry(2, "k3", "plain"),
                        new Entry(4, "k1", "committed"),
                        new Entry(6, "k4", "later"),
                        new Entry(8, "k5", "active")),
                read(log));
        assertTrue(isMarker(batchHolding(log, 3)), "the abort marker stays while the cleaning saw its transaction");
        assertEquals(
                aborted,
                log.logSegments().getFirst().txnIndex().allAbortedTxns(),
                "the cleaned segment's transaction index still has it");

        // Nothing of the transaction is left: the marker gets a delete horizon, then goes.
        log.roll();
        append(log, logs.keyed("k6", "x"));
        next = logs.clean(cleaner, log, next);
        assertEquals(
                OptionalLong.of(logs.time.millis() + 1000), batchHolding(log, 3).deleteHorizonMs());
        logs.time.sleep(1000);
        log.roll();
        append(log, logs.keyed("k7", "y"));
        logs.clean(cleaner, log, next);
        assertTrue(batches(log).stream().noneMatch(b -> b.lastOffset() == 3), "the abort marker is gone");
        assertEquals(List.of(), log.logSegments().getFirst().txnIndex().allAbortedTxns());
    }

    @Test
    void aProducersLastBatchStaysEmptySoItsSequenceSurvivesAReload() throws Exception {
        CleanerLogs logs = new CleanerLogs(dir);
        UnifiedLog log = logs.open("topic-0", compacted());
        long producer = 3000;
        append(log, logs.producerBatch(Compression.NONE, producer, (short) 5, 0, false, "k1", "a", "k2", "b"));
        append(log, logs.keyed("k1", "c", "k2", "d"));
        log.roll();
        append(log, logs.keyed("k3", "e"));

        logs.clean(logs.cleaner(MAP_MEMORY), log, 0);

        RecordBatch kept = batches(log).getFirst();
        assertEquals(0, kept.recordsCount(), "its records are gone");
        assertEquals(
                List.of(producer, 5L, 0L, 1L),
                List.of(kept.producerId(), (long) kept.producerEpoch(), (long) kept.baseSequence(), kept.lastOffset()));
        assertEquals(List.of(new Entry(2, "k1", "c"), new Entry(3, "k2", "d"), new Entry(4, "k3", "e")), read(log));

        // Recovered from the segments alone, the producer state still knows the sequence.
        log.close();
        try (Stream<Path> files = Files.list(dir.resolve("topic-0"))) {
            for (Path snapshot :
                    files.filter(f -> f.toString().endsWith(".snapshot")).toList()) {
                Files.delete(snapshot);
            }
        }
        UnifiedLog reopened = logs.open("topic-0", compacted(), false);
        append(reopened, logs.producerBatch(Compression.NONE, producer, (short) 5, 2, false, "k1", "f"));
        assertEquals(new Entry(5, "k1", "f"), read(reopened).getLast());
        reopened.close();
    }

    @ParameterizedTest
    @EnumSource(CompressionType.class)
    void aCompressedBatchLosingRecordsKeepsItsCodec(CompressionType type) throws Exception {
        CleanerLogs logs = new CleanerLogs(dir);
        UnifiedLog log = logs.open("topic-0", compacted("compression.type", "producer"));
        Compression codec = Compression.of(type);
        append(log, logs.keyed(codec, "k1", "a", "k2", "b", "k3", "c", "k4", null));
        append(log, logs.keyed(codec, "k2", "d", "k5", "e"));
        log.roll();
        append(log, logs.keyed(codec, "k1", "f"));
        log.roll();
        append(log, logs.keyed("k9", "active"));

        logs.clean(logs.cleaner(MAP_MEMORY), log, 0);

        assertEquals(
                List.of(
                        new Entry(2, "k3", "c"),
                        new Entry(3, "k4", "null"),
                        new Entry(4, "k2", "d"),
                        new Entry(5, "k5", "e"),
                        new Entry(6, "k1", "f"),
                        new Entry(7, "k9", "active")),
                read(log));
        for (RecordBatch batch : batches(log).subList(0, 3)) {
            assertEquals(type, batch.compressionType(), batch.toString());
            batch.ensureValid();
        }
        assertEquals(3, batches(log).getFirst().lastOffset(), "the rebuilt batch claims its old offsets");
    }

    @Test
    void aFullOffsetMapCleansTheLogInSeveralPasses() throws Exception {
        CleanerLogs logs = new CleanerLogs(dir);
        UnifiedLog log = logs.open("topic-0", compacted());
        Map<String, Entry> latest = new LinkedHashMap<>();
        for (int round = 0; round < 3; round++) {
            for (int key = 0; key < 20; key++) {
                long offset = log.logEndOffset();
                append(log, logs.keyed("k" + key, "v" + round));
                latest.put("k" + key, new Entry(offset, "k" + key, "v" + round));
            }
            log.roll();
        }
        long end = log.activeSegment().baseOffset();
        // Eight slots: six keys a pass at the load factor of 0.75.
        Cleaner cleaner = logs.cleaner(8 * 24);
        long next = 0;
        int passes = 0;
        while (next < end) {
            long after = logs.clean(cleaner, log, next);
            assertTrue(after > next, "each pass goes further");
            next = after;
            passes++;
        }

        assertTrue(passes >= 7, "60 dirty records of 20 keys take several passes: " + passes);
        assertEquals(
                latest.values().stream()
                        .sorted((a, b) -> Long.compare(a.offset(), b.offset()))
                        .toList(),
                read(log));
    }

    @Test
    void theLastBatchBelowTheHighWatermarkStaysEvenEmptySoTheLogEndOffsetSurvives() throws Exception {
        CleanerLogs logs = new CleanerLogs(dir);
        UnifiedLog log = logs.open("topic-0", compacted("cleanup.policy", "delete"));
        append(log, logs.keyed("k1", "a"));
        append(log, logs.keyed("k1", "b", "k2", "c"));
        append(log, logs.keyed((String) null, "no key"));
        log.roll();
        // Not acknowledged: the high watermark stays at the end of the rolled segment.
        log.appendAsLeader(logs.keyed("k2", "e"), 0, AppendOrigin.CLIENT, ProducerAppendInfo.TV_UNKNOWN);
        log.updateConfig(compacted());
        assertEquals(4, log.highWatermark());

        logs.clean(logs.cleaner(MAP_MEMORY), log, 0);

        List<RecordBatch> batches = batches(log);
        assertEquals(
                List.of(2L, 3L, 4L),
                batches.stream().map(RecordBatch::lastOffset).toList());
        assertEquals(0, batches.get(1).recordsCount(), "kept without its record");
    }

    @Test
    void theActiveSegmentRollsAtTheMaxCompactionLagSoItsRecordsGetCleaned() throws Exception {
        CleanerLogs logs = new CleanerLogs(dir);
        UnifiedLog log = logs.open("topic-0", compacted("max.compaction.lag.ms", 1000L));
        append(log, logs.keyed("k1", "a"));
        append(log, logs.keyed("k1", "b"));
        logs.time.sleep(1001);
        append(log, logs.keyed("k2", "c"));
        assertEquals(2, log.activeSegment().baseOffset(), "rolled: its first record is older than the lag");

        logs.clean(logs.cleaner(MAP_MEMORY), log, 0);

        assertEquals(List.of(new Entry(1, "k1", "b"), new Entry(2, "k2", "c")), read(log));
    }

    private static RecordBatch batchHolding(UnifiedLog log, long offset) throws Exception {
        return batches(log).stream()
                .filter(b -> b.baseOffset() <= offset && offset <= b.lastOffset())
                .findFirst()
                .orElseThrow();
    }

    private static boolean isMarker(RecordBatch batch) {
        return batch.isControlBatch() && batch.recordsCount() == 1;
    }
}
