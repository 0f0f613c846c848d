package io.krabka.plugin.rlmm.inmemory;

import static io.krabka.plugin.rlmm.inmemory.Fixtures.TP0;
import static io.krabka.plugin.rlmm.inmemory.Fixtures.list;
import static io.krabka.plugin.rlmm.inmemory.Fixtures.manager;
import static io.krabka.plugin.rlmm.inmemory.Fixtures.started;
import static io.krabka.plugin.rlmm.inmemory.Fixtures.update;
import static io.krabka.plugin.rlmm.inmemory.Fixtures.upsert;
import static io.krabka.spi.storage.RemoteLogSegmentState.COPY_SEGMENT_FINISHED;
import static io.krabka.spi.storage.RemoteLogSegmentState.COPY_SEGMENT_STARTED;
import static io.krabka.spi.storage.RemoteLogSegmentState.DELETE_SEGMENT_FINISHED;
import static io.krabka.spi.storage.RemoteLogSegmentState.DELETE_SEGMENT_STARTED;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.CustomMetadata;
import io.krabka.spi.storage.InvalidStateTransitionException;
import io.krabka.spi.storage.RemoteLogSegmentId;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentMetadataUpdate;
import io.krabka.spi.storage.RemoteLogSegmentState;
import io.krabka.spi.storage.RemotePartitionDeleteMetadata;
import io.krabka.spi.storage.RemotePartitionDeleteState;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

class SegmentLifecycleTest {

    private final InMemoryRemoteLogMetadataManager manager = manager();

    // Kafka's RemoteLogMetadataCacheTest.testAPIsWithInvalidArgs: adding in any other state is refused.
    @ParameterizedTest
    @EnumSource(value = RemoteLogSegmentState.class, names = "COPY_SEGMENT_STARTED", mode = EnumSource.Mode.EXCLUDE)
    void addRequiresCopySegmentStarted(RemoteLogSegmentState state) {
        RemoteLogSegmentMetadata advanced = new RemoteLogSegmentMetadata(
                new RemoteLogSegmentId(TP0, Uuid.randomUuid()),
                0,
                100,
                -1L,
                0,
                Fixtures.TIME,
                Fixtures.SEG_SIZE,
                Optional.empty(),
                state,
                new TreeMap<>(Map.of(0, 0L)),
                true);
        assertThrows(IllegalArgumentException.class, () -> manager.addRemoteLogSegmentMetadata(advanced));
        assertThrows(
                RemoteResourceNotFoundException.class,
                () -> manager.listRemoteLogSegments(TP0),
                "a refused segment leaves nothing behind");
    }

    @ParameterizedTest(name = "{0} -> {1}: legal={2}")
    @CsvSource({
        "COPY_SEGMENT_STARTED,   COPY_SEGMENT_FINISHED,   true",
        "COPY_SEGMENT_STARTED,   DELETE_SEGMENT_STARTED,  true",
        "COPY_SEGMENT_STARTED,   DELETE_SEGMENT_FINISHED, false",
        "COPY_SEGMENT_FINISHED,  COPY_SEGMENT_FINISHED,   true",
        "COPY_SEGMENT_FINISHED,  DELETE_SEGMENT_STARTED,  true",
        "COPY_SEGMENT_FINISHED,  DELETE_SEGMENT_FINISHED, false",
        "DELETE_SEGMENT_STARTED, COPY_SEGMENT_FINISHED,   false",
        "DELETE_SEGMENT_STARTED, DELETE_SEGMENT_STARTED,  true",
        "DELETE_SEGMENT_STARTED, DELETE_SEGMENT_FINISHED, true",
    })
    void updatesFollowKafkasLifecycle(RemoteLogSegmentState from, RemoteLogSegmentState to, boolean legal)
            throws Exception {
        RemoteLogSegmentMetadata segment = reach(from);
        RemoteLogSegmentMetadataUpdate update = update(segment, to);
        if (legal) {
            manager.updateRemoteLogSegmentMetadata(update);
            List<RemoteLogSegmentMetadata> listed = list(manager.listRemoteLogSegments(TP0));
            assertEquals(
                    to == DELETE_SEGMENT_FINISHED ? List.of() : List.of(segment.createWithUpdates(update)), listed);
        } else {
            InvalidStateTransitionException e = assertThrows(
                    InvalidStateTransitionException.class, () -> manager.updateRemoteLogSegmentMetadata(update));
            assertTrue(e.getMessage().contains(from + " to " + to), e.getMessage());
            assertEquals(List.of(segment), list(manager.listRemoteLogSegments(TP0)), "the segment is unchanged");
        }
    }

    @ParameterizedTest
    @EnumSource(value = RemoteLogSegmentState.class, names = "COPY_SEGMENT_STARTED", mode = EnumSource.Mode.EXCLUDE)
    void aDeletedSegmentIsGoneForEveryUpdate(RemoteLogSegmentState to) throws Exception {
        RemoteLogSegmentMetadata segment = reach(DELETE_SEGMENT_STARTED);
        manager.updateRemoteLogSegmentMetadata(update(segment, DELETE_SEGMENT_FINISHED));
        assertThrows(
                RemoteResourceNotFoundException.class,
                () -> manager.updateRemoteLogSegmentMetadata(update(segment, to)));
    }

    @Test
    void addingACopyAgainWhileItStartsReplacesIt() throws Exception {
        RemoteLogSegmentMetadata first = started(TP0, 0, 100, Map.of(0, 0L, 1, 50L));
        manager.addRemoteLogSegmentMetadata(first);
        RemoteLogSegmentMetadata again = new RemoteLogSegmentMetadata(
                first.remoteLogSegmentId(), 0, 100, 7L, 2, 9L, 512, new TreeMap<>(Map.of(0, 0L)), false);
        manager.addRemoteLogSegmentMetadata(again);
        assertEquals(List.of(again), list(manager.listRemoteLogSegments(TP0)));
        assertEquals(List.of(again), list(manager.listRemoteLogSegments(TP0, 0)));
        assertEquals(List.of(), list(manager.listRemoteLogSegments(TP0, 1)), "epoch 1 no longer tracks it");
    }

    @ParameterizedTest
    @EnumSource(
            value = RemoteLogSegmentState.class,
            names = {"COPY_SEGMENT_FINISHED", "DELETE_SEGMENT_STARTED"})
    void addingAKnownSegmentPastStartedIsIllegal(RemoteLogSegmentState state) throws Exception {
        RemoteLogSegmentMetadata segment = reach(state);
        RemoteLogSegmentMetadata startedAgain = started(TP0, 0, 100, Map.of(0, 0L));
        RemoteLogSegmentMetadata sameId = new RemoteLogSegmentMetadata(
                segment.remoteLogSegmentId(), 0, 100, -1L, 0, 0L, 10, new TreeMap<>(Map.of(0, 0L)), true);
        assertThrows(InvalidStateTransitionException.class, () -> manager.addRemoteLogSegmentMetadata(sameId));
        assertEquals(List.of(segment), list(manager.listRemoteLogSegments(TP0)));
        manager.addRemoteLogSegmentMetadata(startedAgain);
        assertEquals(2, list(manager.listRemoteLogSegments(TP0)).size(), "a new id is a new copy");
    }

    // Kafka's RemoteLogMetadataCacheTest.testAPIsWithInvalidArgs: updating an unknown segment.
    @Test
    void updatingAnUnknownSegmentIsNotFound() throws Exception {
        RemoteLogSegmentMetadataUpdate unknownPartition = new RemoteLogSegmentMetadataUpdate(
                new RemoteLogSegmentId(TP0, Uuid.randomUuid()), 1L, Optional.empty(), DELETE_SEGMENT_STARTED, 1);
        assertThrows(
                RemoteResourceNotFoundException.class, () -> manager.updateRemoteLogSegmentMetadata(unknownPartition));
        upsert(manager, started(TP0, 0, 100, Map.of(0, 0L)), COPY_SEGMENT_FINISHED);
        assertThrows(
                RemoteResourceNotFoundException.class, () -> manager.updateRemoteLogSegmentMetadata(unknownPartition));
    }

    @Test
    void anUpdateTakesBrokerTimeAndCustomMetadataAndKeepsTheRest() throws Exception {
        RemoteLogSegmentMetadata segment = started(TP0, 0, 100, Map.of(0, 0L));
        manager.addRemoteLogSegmentMetadata(segment);
        manager.updateRemoteLogSegmentMetadata(update(segment, COPY_SEGMENT_FINISHED, (byte) 1, (byte) 2));
        RemoteLogSegmentMetadata stored =
                manager.remoteLogSegmentMetadata(TP0, 0, 50).orElseThrow();
        assertEquals(COPY_SEGMENT_FINISHED, stored.state());
        assertEquals(Fixtures.BROKER_ID_1, stored.brokerId());
        assertEquals(Fixtures.TIME + 1, stored.eventTimestampMs());
        assertEquals(Optional.of(new CustomMetadata(new byte[] {1, 2})), stored.customMetadata());
        assertEquals(segment.segmentLeaderEpochs(), stored.segmentLeaderEpochs());
        assertEquals(segment.segmentSizeInBytes(), stored.segmentSizeInBytes());
    }

    @Test
    void everyChangeReturnsACompletedFuture() throws Exception {
        RemoteLogSegmentMetadata segment = started(TP0, 0, 100, Map.of(0, 0L));
        for (CompletableFuture<Void> future : List.of(
                manager.addRemoteLogSegmentMetadata(segment),
                manager.updateRemoteLogSegmentMetadata(update(segment, COPY_SEGMENT_FINISHED)),
                manager.putRemotePartitionDeleteMetadata(new RemotePartitionDeleteMetadata(
                        TP0, RemotePartitionDeleteState.DELETE_PARTITION_MARKED, 1L, 0)))) {
            assertTrue(future.isDone());
            assertFalse(future.isCompletedExceptionally());
            assertNull(future.getNow(null));
        }
    }

    @Test
    void nullArgumentsAreRefused() {
        assertThrows(NullPointerException.class, () -> manager.addRemoteLogSegmentMetadata(null));
        assertThrows(NullPointerException.class, () -> manager.updateRemoteLogSegmentMetadata(null));
        assertThrows(NullPointerException.class, () -> manager.putRemotePartitionDeleteMetadata(null));
        assertThrows(NullPointerException.class, () -> manager.remoteLogSegmentMetadata(null, 0, 0));
        assertThrows(NullPointerException.class, () -> manager.listRemoteLogSegments(null));
    }

    @Test
    void callsOutOfOrderAreRefused() throws Exception {
        InMemoryRemoteLogMetadataManager fresh = new InMemoryRemoteLogMetadataManager();
        RemoteLogSegmentMetadata segment = started(TP0, 0, 100, Map.of(0, 0L));
        assertThrows(IllegalStateException.class, () -> fresh.addRemoteLogSegmentMetadata(segment));
        assertThrows(IllegalStateException.class, () -> fresh.highestOffsetForEpoch(TP0, 0));
        fresh.configure(Map.of());
        assertThrows(IllegalStateException.class, () -> fresh.configure(Map.of()));
        fresh.addRemoteLogSegmentMetadata(segment);
        fresh.close();
        fresh.close();
        assertThrows(IllegalStateException.class, () -> fresh.listRemoteLogSegments(TP0));
        assertThrows(
                IllegalStateException.class,
                () -> fresh.updateRemoteLogSegmentMetadata(update(segment, COPY_SEGMENT_FINISHED)));
        assertThrows(IllegalStateException.class, () -> fresh.onPartitionLeadershipChanges(Set.of(TP0), Set.of()));
        assertThrows(IllegalStateException.class, () -> fresh.onStopPartitions(Set.of(TP0)));
    }

    /** A segment of TP0 brought to {@code state} by Kafka's path, as the manager now holds it. */
    private RemoteLogSegmentMetadata reach(RemoteLogSegmentState state) throws Exception {
        RemoteLogSegmentMetadata segment = started(TP0, 0, 100, Map.of(0, 0L));
        manager.addRemoteLogSegmentMetadata(segment);
        if (state == COPY_SEGMENT_STARTED) {
            return segment;
        }
        RemoteLogSegmentMetadataUpdate update = update(segment, state);
        manager.updateRemoteLogSegmentMetadata(update);
        return segment.createWithUpdates(update);
    }
}
