package io.krabka.plugin.rlmm.inmemory;

import static io.krabka.plugin.rlmm.inmemory.Fixtures.TP0;
import static io.krabka.plugin.rlmm.inmemory.Fixtures.TP1;
import static io.krabka.plugin.rlmm.inmemory.Fixtures.manager;
import static io.krabka.plugin.rlmm.inmemory.Fixtures.started;
import static io.krabka.plugin.rlmm.inmemory.Fixtures.update;
import static io.krabka.plugin.rlmm.inmemory.Fixtures.upsert;
import static io.krabka.spi.storage.RemoteLogSegmentState.COPY_SEGMENT_FINISHED;
import static io.krabka.spi.storage.RemoteLogSegmentState.COPY_SEGMENT_STARTED;
import static io.krabka.spi.storage.RemoteLogSegmentState.DELETE_SEGMENT_STARTED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * KIP-1058: from the readable segment holding an offset, through the readable segments that follow it in the epoch,
 * the first that has aborted transactions; nothing once the walk meets a gap, as Kafka's cache answers.
 */
class NextSegmentWithTxnIndexTest {

    private final InMemoryRemoteLogMetadataManager manager = manager();

    @Test
    void skipsSegmentsWithoutTransactions() throws Exception {
        segment(0, 99, Map.of(0, 0L), false);
        segment(100, 199, Map.of(0, 100L), false);
        RemoteLogSegmentMetadata withTxn = segment(200, 299, Map.of(0, 200L), true);
        assertEquals(Optional.of(withTxn), next(0, 0));
        assertEquals(Optional.of(withTxn), next(0, 150));
        assertEquals(Optional.of(withTxn), next(0, 200));
        assertEquals(Optional.of(withTxn), next(0, 299));
        assertEquals(Optional.empty(), next(0, 300));
    }

    @Test
    void theSegmentHoldingTheOffsetCountsWhenItHasTransactions() throws Exception {
        RemoteLogSegmentMetadata first = segment(0, 99, Map.of(0, 0L), true);
        segment(100, 199, Map.of(0, 100L), true);
        assertEquals(Optional.of(first), next(0, 42));
    }

    @Test
    void staysWithinTheEpoch() throws Exception {
        // Epoch 0 ends at 349, inside the segment; the next segment with transactions is all epoch 1.
        segment(300, 399, Map.of(0, 300L, 1, 350L), false);
        RemoteLogSegmentMetadata epoch1 = segment(400, 499, Map.of(1, 400L), true);
        assertEquals(Optional.empty(), next(0, 320));
        assertEquals(Optional.of(epoch1), next(1, 350));
        assertEquals(Optional.empty(), next(2, 350));
    }

    @Test
    void findsASegmentWhoseEpochEndsInside() throws Exception {
        RemoteLogSegmentMetadata both = segment(300, 399, Map.of(0, 300L, 1, 350L), true);
        assertEquals(Optional.of(both), next(0, 310));
        assertEquals(Optional.of(both), next(1, 360));
        assertEquals(Optional.empty(), next(0, 350), "epoch 0 ended at 349");
    }

    @Test
    void stopsAtASegmentStillBeingCopied() throws Exception {
        segment(0, 99, Map.of(0, 0L), false);
        upsert(manager, started(TP0, 100, 199, Map.of(0, 100L), false), COPY_SEGMENT_STARTED);
        RemoteLogSegmentMetadata afterGap = segment(200, 299, Map.of(0, 200L), true);
        assertEquals(Optional.empty(), next(0, 0), "a copy under way is not readable, even with transactions");
        assertEquals(Optional.empty(), next(0, 150), "an offset in the gap");
        assertEquals(Optional.of(afterGap), next(0, 200));
    }

    @Test
    void stopsAtASegmentBeingDeleted() throws Exception {
        segment(0, 99, Map.of(0, 0L), false);
        RemoteLogSegmentMetadata deleted = segment(100, 199, Map.of(0, 100L), false);
        manager.updateRemoteLogSegmentMetadata(update(deleted, DELETE_SEGMENT_STARTED));
        RemoteLogSegmentMetadata afterGap = segment(200, 299, Map.of(0, 200L), true);
        assertEquals(Optional.empty(), next(0, 50));
        assertEquals(Optional.empty(), next(0, 150), "an offset in the gap");
        assertEquals(Optional.of(afterGap), next(0, 250));
    }

    @Test
    void crossesAGapOnceACopyOfItsOffsetsFinishes() throws Exception {
        segment(0, 99, Map.of(0, 0L), false);
        // A copy that failed goes from started straight to deletion; the broker retries it under a new id.
        upsert(manager, started(TP0, 100, 199, Map.of(0, 100L), true), DELETE_SEGMENT_STARTED);
        RemoteLogSegmentMetadata afterGap = segment(200, 299, Map.of(0, 200L), true);
        assertEquals(Optional.empty(), next(0, 50));
        segment(100, 199, Map.of(0, 100L), false);
        assertEquals(Optional.of(afterGap), next(0, 50), "the retried copy fills the gap");
    }

    @Test
    void anOffsetBeforeTheFirstSegmentFindsNothing() throws Exception {
        segment(100, 199, Map.of(0, 100L), true);
        assertEquals(Optional.empty(), next(0, 50));
        assertEquals(Optional.empty(), next(0, 200), "past the last segment");
    }

    @Test
    void unknownEpochAndPartition() throws Exception {
        segment(0, 99, Map.of(0, 0L), true);
        assertEquals(Optional.empty(), next(5, 0));
        assertThrows(RemoteResourceNotFoundException.class, () -> manager.nextSegmentWithTxnIndex(TP1, 0, 0));
    }

    private RemoteLogSegmentMetadata segment(long start, long end, Map<Integer, Long> epochs, boolean hasTxn)
            throws Exception {
        return upsert(manager, started(TP0, start, end, epochs, !hasTxn), COPY_SEGMENT_FINISHED);
    }

    private Optional<RemoteLogSegmentMetadata> next(int epoch, long offset) throws Exception {
        return manager.nextSegmentWithTxnIndex(TP0, epoch, offset);
    }
}
