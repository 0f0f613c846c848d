package io.krabka.kernel.restore.bound;

import static io.krabka.kernel.restore.bound.BatchDecision.DROP;
import static io.krabka.kernel.restore.bound.BatchDecision.EMPTY;
import static io.krabka.kernel.restore.bound.BatchDecision.FILTER;
import static io.krabka.kernel.restore.bound.BatchDecision.KEEP;
import static io.krabka.kernel.restore.bound.Bounds.batch;
import static io.krabka.kernel.restore.bound.Bounds.flags;
import static io.krabka.kernel.restore.bound.Bounds.marker;
import static io.krabka.kernel.restore.bound.Bounds.producerBatch;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.krabka.kernel.record.TimestampType;
import org.junit.jupiter.api.Test;

/** {@link RestoreBounds#decide(BatchHeader)} at the edges of each bound. */
class BatchDecisionTest {

    @Test
    void noBoundKeepsEveryBatch() throws Exception {
        RestoreBounds bounds = flags().build();
        assertEquals(KEEP, bounds.decide(batch(0, 100)));
        assertEquals(KEEP, bounds.decide(marker(101, 100, 7)));
    }

    @Test
    void toOffsetIsInclusiveAndCutsAStraddlingBatchToItsRecords() throws Exception {
        RestoreBounds bounds = flags().toOffset("t:0=10").build();
        assertEquals(KEEP, bounds.decide(batch(0, 10)), "last offset at N");
        assertEquals(KEEP, bounds.decide(batch(10, 10)));
        assertEquals(FILTER, bounds.decide(batch(5, 11)), "straddles N: the records at or below N are kept");
        assertEquals(FILTER, bounds.decide(batch(10, 20)));
        assertEquals(DROP, bounds.decide(batch(11, 20)), "base offset past N");
        assertEquals(
                KEEP,
                bounds.decide(new BatchHeader(Bounds.T1, 11, 20, 100, TimestampType.CREATE_TIME, -1, false)),
                "another partition has no bound");
    }

    @Test
    void toTimestampKeepsOnlyBatchesWhollyBeforeTheInstant() throws Exception {
        RestoreBounds bounds = flags().toTimestamp("1000").build();
        assertEquals(KEEP, bounds.decide(batch(0, 9, 999, TimestampType.CREATE_TIME)));
        assertEquals(
                FILTER,
                bounds.decide(batch(0, 9, 1000, TimestampType.CREATE_TIME)),
                "a record at the instant is dropped, but the others may be before it");
        assertEquals(FILTER, bounds.decide(batch(0, 9, 5000, TimestampType.CREATE_TIME)));
        assertEquals(KEEP, bounds.decide(batch(0, 9, -1, TimestampType.CREATE_TIME)), "no timestamps");
    }

    @Test
    void logAppendTimeBatchesAreCutWhole() throws Exception {
        RestoreBounds bounds = flags().toTimestamp("1000").build();
        assertEquals(KEEP, bounds.decide(batch(0, 9, 999, TimestampType.LOG_APPEND_TIME)));
        assertEquals(DROP, bounds.decide(batch(0, 9, 1000, TimestampType.LOG_APPEND_TIME)));
    }

    @Test
    void bothCutsApply() throws Exception {
        RestoreBounds bounds = flags().toOffset("t:0=10").toTimestamp("1000").build();
        assertEquals(KEEP, bounds.decide(batch(0, 10, 999, TimestampType.CREATE_TIME)));
        assertEquals(FILTER, bounds.decide(batch(0, 10, 1000, TimestampType.CREATE_TIME)));
        assertEquals(FILTER, bounds.decide(batch(5, 11, 999, TimestampType.CREATE_TIME)));
        assertEquals(DROP, bounds.decide(batch(11, 12, 0, TimestampType.CREATE_TIME)));
        assertEquals(DROP, bounds.decide(batch(0, 10, 1000, TimestampType.LOG_APPEND_TIME)));
    }

    @Test
    void excludeOffsetWithExclusiveEnd() throws Exception {
        RestoreBounds bounds = flags().excludeOffset("t:0=10..20").build();
        assertEquals(EMPTY, bounds.decide(batch(10, 19)), "every offset of the batch is excluded");
        assertEquals(EMPTY, bounds.decide(batch(12, 15)));
        assertEquals(FILTER, bounds.decide(batch(10, 20)), "20 is not excluded");
        assertEquals(FILTER, bounds.decide(batch(5, 10)));
        assertEquals(KEEP, bounds.decide(batch(0, 9)));
        assertEquals(KEEP, bounds.decide(batch(20, 30)));
    }

    @Test
    void excludeOffsetWithInclusiveEnd() throws Exception {
        RestoreBounds bounds = flags().excludeOffset("t:0=10..=20").build();
        assertEquals(EMPTY, bounds.decide(batch(10, 20)));
        assertEquals(FILTER, bounds.decide(batch(20, 21)));
        assertEquals(KEEP, bounds.decide(batch(21, 30)));
    }

    @Test
    void rangesThatTouchEmptyABatchTogether() throws Exception {
        RestoreBounds bounds =
                flags().excludeOffset("t:0=10..15").excludeOffset("t:0=15..20").build();
        assertEquals(EMPTY, bounds.decide(batch(10, 19)));
        RestoreBounds gap =
                flags().excludeOffset("t:0=10..15").excludeOffset("t:0=16..20").build();
        assertEquals(FILTER, gap.decide(batch(10, 19)), "offset 15 is kept");
    }

    @Test
    void anExcludedProducersBatchesAreEmptied() throws Exception {
        RestoreBounds bounds = flags().excludeProducerId("7").toOffset("t:0=10").build();
        assertEquals(EMPTY, bounds.decide(producerBatch(0, 10, 7)));
        assertEquals(KEEP, bounds.decide(producerBatch(0, 10, 8)));
        assertEquals(KEEP, bounds.decide(producerBatch(0, 10, -1)));
        assertEquals(
                FILTER,
                bounds.decide(producerBatch(5, 15, 7)),
                "straddling the cut: excluded up to it, beyond the cut after");
        assertEquals(DROP, bounds.decide(producerBatch(11, 15, 7)));
    }

    @Test
    void keyAndHeaderExclusionsNeedTheRecords() throws Exception {
        assertEquals(FILTER, flags().excludeKey("k").build().decide(batch(0, 9)));
        assertEquals(FILTER, flags().excludeHeader("h=v").build().decide(batch(0, 9)));
        assertEquals(
                EMPTY,
                flags().excludeKey("k").excludeOffset("t:0=0..10").build().decide(batch(0, 9)),
                "the header alone shows every record excluded");
    }

    @Test
    void transactionMarkersAreCutButNeverExcluded() throws Exception {
        RestoreBounds bounds = flags().toOffset("t:0=10")
                .toTimestamp("1000")
                .excludeProducerId("7")
                .excludeOffset("t:0=3..=5")
                .excludeKey("")
                .build();
        assertEquals(KEEP, bounds.decide(marker(2, 500, 7)), "the excluded producer's marker ends its transaction");
        assertEquals(KEEP, bounds.decide(marker(4, 500, 8)), "inside an excluded range");
        assertEquals(KEEP, bounds.decide(marker(10, 500, 8)));
        assertEquals(DROP, bounds.decide(marker(11, 500, 8)), "past the offset cut");
        assertEquals(FILTER, bounds.decide(marker(9, 1000, 8)), "its record's timestamp decides");
    }
}
