package io.krabka.kernel.restore.bound;

import static io.krabka.kernel.restore.bound.Bounds.batch;
import static io.krabka.kernel.restore.bound.Bounds.flags;
import static io.krabka.kernel.restore.bound.Bounds.marker;
import static io.krabka.kernel.restore.bound.Bounds.producerBatch;
import static io.krabka.kernel.restore.bound.Bounds.record;
import static io.krabka.kernel.restore.bound.ExclusionFlagsTest.bytes;
import static io.krabka.kernel.restore.bound.ExclusionFlagsTest.text;
import static io.krabka.kernel.restore.bound.RecordDecision.BEYOND_CUT;
import static io.krabka.kernel.restore.bound.RecordDecision.EXCLUDED;
import static io.krabka.kernel.restore.bound.RecordDecision.KEEP;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.krabka.kernel.record.Header;
import io.krabka.kernel.record.Record;
import io.krabka.kernel.record.TimestampType;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link RestoreBounds#decide(BatchHeader, Record)}: cut, excluded or kept. */
class RecordDecisionTest {

    @Test
    void toOffsetKeepsNAndCutsAfterIt() throws Exception {
        RestoreBounds bounds = flags().toOffset("t:0=10").build();
        BatchHeader straddling = batch(5, 15);
        assertEquals(KEEP, bounds.decide(straddling, record(10, 100)));
        assertEquals(BEYOND_CUT, bounds.decide(straddling, record(11, 100)));
    }

    @Test
    void toTimestampKeepsStrictlyBefore() throws Exception {
        RestoreBounds bounds = flags().toTimestamp("2024-05-01T12:00:00Z").build();
        long instant = 1_714_564_800_000L;
        BatchHeader batch = batch(0, 9, instant, TimestampType.CREATE_TIME);
        assertEquals(KEEP, bounds.decide(batch, record(0, instant - 1)));
        assertEquals(BEYOND_CUT, bounds.decide(batch, record(1, instant)));
        assertEquals(BEYOND_CUT, bounds.decide(batch, record(2, instant + 1)));
        assertEquals(KEEP, bounds.decide(batch, record(3, -1)), "a record without a timestamp");
    }

    @Test
    void excludeOffsetEnds() throws Exception {
        RestoreBounds exclusive = flags().excludeOffset("t:0=10..20").build();
        BatchHeader batch = batch(5, 25);
        assertEquals(KEEP, exclusive.decide(batch, record(9, 100)));
        assertEquals(EXCLUDED, exclusive.decide(batch, record(10, 100)));
        assertEquals(EXCLUDED, exclusive.decide(batch, record(19, 100)));
        assertEquals(KEEP, exclusive.decide(batch, record(20, 100)));
        RestoreBounds inclusive = flags().excludeOffset("t:0=10..=20").build();
        assertEquals(EXCLUDED, inclusive.decide(batch, record(20, 100)));
        assertEquals(KEEP, inclusive.decide(batch, record(21, 100)));
    }

    @Test
    void theCutComesBeforeExclusions() throws Exception {
        RestoreBounds bounds = flags().toOffset("t:0=10")
                .excludeOffset("t:0=5..=20")
                .excludeKey("k")
                .build();
        BatchHeader batch = batch(0, 15);
        assertEquals(EXCLUDED, bounds.decide(batch, record(10, 100)));
        assertEquals(
                BEYOND_CUT,
                bounds.decide(batch, record(11, 100, text("k"), List.of())),
                "past the cut ends the partition, whatever else matches");
    }

    @Test
    void exclusionsAreOrCombined() throws Exception {
        RestoreBounds bounds = flags().excludeKey("^a")
                .excludeKey("^\\xFF")
                .excludeHeader("h=^x")
                .excludeProducerId("7")
                .excludeOffset("t:0=50..60")
                .build();
        BatchHeader plain = producerBatch(0, 99, 8);
        List<Header> otherHeader = List.of(new Header("h", text("y")));
        assertEquals(KEEP, bounds.decide(plain, record(0, 100, text("b"), otherHeader)));
        assertEquals(EXCLUDED, bounds.decide(plain, record(1, 100, text("ab"), otherHeader)), "first key regex");
        assertEquals(
                EXCLUDED,
                bounds.decide(plain, record(2, 100, bytes(0xFF, 0x00), otherHeader)),
                "second key regex, on a key that is not UTF-8");
        assertEquals(
                EXCLUDED,
                bounds.decide(plain, record(3, 100, text("b"), List.of(new Header("h", text("xy"))))),
                "header regex");
        assertEquals(
                EXCLUDED, bounds.decide(producerBatch(0, 99, 7), record(4, 100, text("b"), otherHeader)), "producer");
        assertEquals(EXCLUDED, bounds.decide(plain, record(55, 100, text("b"), otherHeader)), "offset");
        assertEquals(
                KEEP,
                bounds.decide(plain, record(5, 100, null, List.of(Header.of("h", null)))),
                "no key and a header without value match nothing");
    }

    @Test
    void markersAreNeverExcludedButAreCut() throws Exception {
        RestoreBounds bounds = flags().toTimestamp("1000")
                .excludeKey("")
                .excludeProducerId("7")
                .excludeOffset("t:0=0..10")
                .build();
        assertEquals(
                KEEP, bounds.decide(marker(5, 999, 7), record(5, 999, text("\u0000\u0000\u0000\u0001"), List.of())));
        assertEquals(BEYOND_CUT, bounds.decide(marker(5, 1000, 7), record(5, 1000)));
    }
}
