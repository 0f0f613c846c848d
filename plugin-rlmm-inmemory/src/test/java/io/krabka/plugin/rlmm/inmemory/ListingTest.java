package io.krabka.plugin.rlmm.inmemory;

import static io.krabka.plugin.rlmm.inmemory.Fixtures.SEG_SIZE;
import static io.krabka.plugin.rlmm.inmemory.Fixtures.TP0;
import static io.krabka.plugin.rlmm.inmemory.Fixtures.TP1;
import static io.krabka.plugin.rlmm.inmemory.Fixtures.finished;
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
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.RemoteLogSegmentId;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Both listings, the remote log size, and how lookups answer for unknown partitions and epochs. */
class ListingTest {

    private final InMemoryRemoteLogMetadataManager manager = manager();

    // Kafka's RemoteLogMetadataCacheTest.testCacheListSegments.
    @Test
    void kafkasListingScenario() throws Exception {
        RemoteLogSegmentMetadata segment0 = finished(manager, 0, 0, 100);
        RemoteLogSegmentMetadata segment1 = finished(manager, 0, 101, 200);
        RemoteLogSegmentMetadata segment2 =
                upsert(manager, started(TP0, 201, 400, Map.of(0, 201L, 1, 301L)), COPY_SEGMENT_FINISHED);
        assertEquals(List.of(segment0, segment1, segment2), list(manager.listRemoteLogSegments(TP0, 0)));
        assertEquals(Set.of(segment0, segment1, segment2), Set.copyOf(list(manager.listRemoteLogSegments(TP0))));
        assertEquals(List.of(segment2), list(manager.listRemoteLogSegments(TP0, 1)));
    }

    @Test
    void bothListingsAreByStartOffsetWhateverTheOrderOfArrival() throws Exception {
        RemoteLogSegmentMetadata third = finished(manager, 0, 200, 299);
        RemoteLogSegmentMetadata first = upsert(manager, started(TP0, 0, 99, Map.of(0, 0L)), DELETE_SEGMENT_STARTED);
        RemoteLogSegmentMetadata second =
                upsert(manager, started(TP0, 100, 199, Map.of(0, 100L)), COPY_SEGMENT_STARTED);
        assertEquals(List.of(first, second, third), list(manager.listRemoteLogSegments(TP0)));
        assertEquals(List.of(first, second, third), list(manager.listRemoteLogSegments(TP0, 0)));
    }

    @Test
    void listingsAreCopiesThatLaterChangesDoNotTouch() throws Exception {
        RemoteLogSegmentMetadata segment = finished(manager, 0, 0, 99);
        Iterator<RemoteLogSegmentMetadata> all = manager.listRemoteLogSegments(TP0);
        Iterator<RemoteLogSegmentMetadata> ofEpoch = manager.listRemoteLogSegments(TP0, 0);
        finished(manager, 0, 100, 199);
        manager.updateRemoteLogSegmentMetadata(update(segment, DELETE_SEGMENT_STARTED));
        assertEquals(List.of(segment), list(all));
        assertEquals(List.of(segment), list(ofEpoch));
        Iterator<RemoteLogSegmentMetadata> again = manager.listRemoteLogSegments(TP0);
        again.next();
        assertThrows(UnsupportedOperationException.class, again::remove);
    }

    @Test
    void remoteLogSizeCountsEverySegmentTheEpochListsAsKafkaDoes() throws Exception {
        upsert(manager, started(TP0, 0, 99, Map.of(0, 0L)), COPY_SEGMENT_FINISHED);
        upsert(manager, started(TP0, 100, 199, Map.of(0, 100L, 1, 150L)), DELETE_SEGMENT_STARTED);
        upsert(manager, started(TP0, 200, 299, Map.of(1, 200L)), COPY_SEGMENT_STARTED);
        RemoteLogSegmentMetadata gone =
                upsert(manager, started(TP0, 300, 399, Map.of(1, 300L)), DELETE_SEGMENT_STARTED);
        manager.updateRemoteLogSegmentMetadata(update(gone, DELETE_SEGMENT_FINISHED));
        assertEquals(2L * SEG_SIZE, manager.remoteLogSize(TP0, 0));
        assertEquals(2L * SEG_SIZE, manager.remoteLogSize(TP0, 1), "the copying segment counts, the deleted one not");
        assertEquals(0L, manager.remoteLogSize(TP0, 7));
    }

    @Test
    void remoteLogSizeSumsBeyondTwoGigabytes() throws Exception {
        for (int i = 0; i < 4; i++) {
            RemoteLogSegmentMetadata big = new RemoteLogSegmentMetadata(
                    new RemoteLogSegmentId(TP0, Uuid.randomUuid()),
                    i * 100L,
                    i * 100L + 99,
                    -1L,
                    0,
                    0L,
                    Integer.MAX_VALUE,
                    new TreeMap<>(Map.of(0, i * 100L)),
                    true);
            manager.addRemoteLogSegmentMetadata(big);
        }
        assertEquals(4L * Integer.MAX_VALUE, manager.remoteLogSize(TP0, 0));
    }

    // Kafka's managers throw RemoteResourceNotFoundException for a partition they hold nothing for.
    @Test
    void everyLookupOnAnUnknownPartitionIsNotFound() {
        for (Executable lookup : lookupsOn(TP1)) {
            assertThrows(RemoteResourceNotFoundException.class, lookup);
        }
    }

    // Kafka's topic-based manager loads a partition when it is told of the broker's leadership.
    @Test
    void aPartitionNamedInALeadershipChangeAnswersEmpty() throws Exception {
        manager.onPartitionLeadershipChanges(Set.of(TP0), Set.of(TP1));
        for (var partition : List.of(TP0, TP1)) {
            assertEquals(Optional.empty(), manager.remoteLogSegmentMetadata(partition, 0, 0));
            assertEquals(Optional.empty(), manager.highestOffsetForEpoch(partition, 0));
            assertFalse(manager.listRemoteLogSegments(partition).hasNext());
            assertFalse(manager.listRemoteLogSegments(partition, 0).hasNext());
            assertEquals(0L, manager.remoteLogSize(partition, 0));
            assertEquals(Optional.empty(), manager.nextSegmentWithTxnIndex(partition, 0, 0));
        }
        assertEquals(Set.of(TP0, TP1), manager.partitions());
    }

    @Test
    void stoppingPartitionsKeepsTheirMetadata() throws Exception {
        RemoteLogSegmentMetadata segment = finished(manager, 0, 0, 99);
        manager.onStopPartitions(Set.of(TP0));
        assertEquals(Optional.of(segment), manager.remoteLogSegmentMetadata(TP0, 0, 5));
        assertEquals(Set.of(TP0), manager.partitions());
    }

    private List<Executable> lookupsOn(TopicIdPartition partition) {
        return List.of(
                () -> manager.remoteLogSegmentMetadata(partition, 0, 0),
                () -> manager.highestOffsetForEpoch(partition, 0),
                () -> manager.listRemoteLogSegments(partition),
                () -> manager.listRemoteLogSegments(partition, 0),
                () -> manager.remoteLogSize(partition, 0),
                () -> manager.nextSegmentWithTxnIndex(partition, 0, 0));
    }
}
