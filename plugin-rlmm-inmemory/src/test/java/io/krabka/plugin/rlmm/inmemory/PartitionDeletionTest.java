package io.krabka.plugin.rlmm.inmemory;

import static io.krabka.plugin.rlmm.inmemory.Fixtures.TP0;
import static io.krabka.plugin.rlmm.inmemory.Fixtures.TP1;
import static io.krabka.plugin.rlmm.inmemory.Fixtures.finished;
import static io.krabka.plugin.rlmm.inmemory.Fixtures.list;
import static io.krabka.plugin.rlmm.inmemory.Fixtures.manager;
import static io.krabka.plugin.rlmm.inmemory.Fixtures.started;
import static io.krabka.spi.storage.RemotePartitionDeleteState.DELETE_PARTITION_FINISHED;
import static io.krabka.spi.storage.RemotePartitionDeleteState.DELETE_PARTITION_MARKED;
import static io.krabka.spi.storage.RemotePartitionDeleteState.DELETE_PARTITION_STARTED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.storage.InvalidStateTransitionException;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemotePartitionDeleteMetadata;
import io.krabka.spi.storage.RemotePartitionDeleteState;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

/** The partition-delete lifecycle: MARKED, STARTED, FINISHED; FINISHED forgets the partition. */
class PartitionDeletionTest {

    private final InMemoryRemoteLogMetadataManager manager = manager();

    @Test
    void theSegmentsStayUntilTheDeletionFinishes() throws Exception {
        RemoteLogSegmentMetadata segment = finished(manager, 0, 0, 99);
        put(TP0, DELETE_PARTITION_MARKED);
        put(TP0, DELETE_PARTITION_STARTED);
        assertEquals(Optional.of(segment), manager.remoteLogSegmentMetadata(TP0, 0, 50));
        assertEquals(List.of(segment), list(manager.listRemoteLogSegments(TP0)));
        put(TP0, DELETE_PARTITION_FINISHED);
        assertThrows(RemoteResourceNotFoundException.class, () -> manager.remoteLogSegmentMetadata(TP0, 0, 50));
        assertThrows(RemoteResourceNotFoundException.class, () -> manager.listRemoteLogSegments(TP0));
        assertThrows(RemoteResourceNotFoundException.class, () -> manager.highestOffsetForEpoch(TP0, 0));
        assertEquals(Set.of(), manager.partitions());
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({
        ",                          DELETE_PARTITION_STARTED",
        ",                          DELETE_PARTITION_FINISHED",
        "DELETE_PARTITION_MARKED,   DELETE_PARTITION_FINISHED",
        "DELETE_PARTITION_STARTED,  DELETE_PARTITION_MARKED",
    })
    void illegalStepsAreRefusedAndChangeNothing(RemotePartitionDeleteState from, RemotePartitionDeleteState to)
            throws Exception {
        RemoteLogSegmentMetadata segment = finished(manager, 0, 0, 99);
        if (from != null) {
            put(TP0, DELETE_PARTITION_MARKED);
            if (from == DELETE_PARTITION_STARTED) {
                put(TP0, DELETE_PARTITION_STARTED);
            }
        }
        assertThrows(InvalidStateTransitionException.class, () -> put(TP0, to));
        assertEquals(List.of(segment), list(manager.listRemoteLogSegments(TP0)));
        // The lifecycle carries on from where it was.
        if (from == null) {
            put(TP0, DELETE_PARTITION_MARKED);
        }
        if (from != DELETE_PARTITION_STARTED) {
            put(TP0, DELETE_PARTITION_STARTED);
        }
        put(TP0, DELETE_PARTITION_FINISHED);
        assertEquals(Set.of(), manager.partitions());
    }

    @ParameterizedTest
    @EnumSource(
            value = RemotePartitionDeleteState.class,
            names = "DELETE_PARTITION_FINISHED",
            mode = EnumSource.Mode.EXCLUDE)
    void repeatingAStepIsHarmless(RemotePartitionDeleteState state) throws Exception {
        put(TP0, DELETE_PARTITION_MARKED);
        if (state == DELETE_PARTITION_STARTED) {
            put(TP0, DELETE_PARTITION_STARTED);
        }
        put(TP0, state);
        put(TP0, state);
    }

    @Test
    void afterFinishingThePartitionCanStartAgain() throws Exception {
        finished(manager, 0, 0, 99);
        put(TP0, DELETE_PARTITION_MARKED);
        put(TP0, DELETE_PARTITION_STARTED);
        put(TP0, DELETE_PARTITION_FINISHED);
        assertThrows(
                InvalidStateTransitionException.class,
                () -> put(TP0, DELETE_PARTITION_FINISHED),
                "the deletion state is forgotten with the partition");
        RemoteLogSegmentMetadata fresh = started(TP0, 0, 10, Map.of(0, 0L));
        manager.addRemoteLogSegmentMetadata(fresh);
        assertEquals(List.of(fresh), list(manager.listRemoteLogSegments(TP0)));
        assertEquals(Optional.empty(), manager.highestOffsetForEpoch(TP0, 0), "nothing of the old partition is left");
        put(TP0, DELETE_PARTITION_MARKED);
    }

    @Test
    void markingAPartitionWithoutSegmentsMakesItKnown() throws Exception {
        put(TP1, DELETE_PARTITION_MARKED);
        assertEquals(List.of(), list(manager.listRemoteLogSegments(TP1)));
        assertEquals(Set.of(TP1), manager.partitions());
    }

    @Test
    void deletingOnePartitionLeavesAnotherAlone() throws Exception {
        RemoteLogSegmentMetadata kept = finished(manager, 0, 0, 99);
        manager.addRemoteLogSegmentMetadata(started(TP1, 0, 99, Map.of(0, 0L)));
        put(TP1, DELETE_PARTITION_MARKED);
        put(TP1, DELETE_PARTITION_STARTED);
        put(TP1, DELETE_PARTITION_FINISHED);
        assertEquals(List.of(kept), list(manager.listRemoteLogSegments(TP0)));
        assertEquals(Set.of(TP0), manager.partitions());
    }

    private void put(TopicIdPartition partition, RemotePartitionDeleteState state) throws Exception {
        manager.putRemotePartitionDeleteMetadata(new RemotePartitionDeleteMetadata(partition, state, 1L, 0));
    }
}
