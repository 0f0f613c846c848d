package io.krabka.plugin.rlmm.inmemory;

import static io.krabka.plugin.rlmm.inmemory.Fixtures.TP0;
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

import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentMetadataUpdate;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Lookups by leader epoch and offset, across leader changes; the scenarios of Kafka's cache tests come first. */
class EpochLookupTest {

    private final InMemoryRemoteLogMetadataManager manager = manager();

    // Kafka's RemoteLogMetadataCacheTest.testSegmentsLifeCycleInCache and RemoteLogSegmentLifecycleTest
    // .testRemoteLogSegmentLifeCycle, with their values.
    @Test
    void kafkasSegmentLifecycleScenario() throws Exception {
        // segment 0: offsets 0-100, leader epochs (0,0), (1,20), (2,80)
        RemoteLogSegmentMetadata segment0 = started(TP0, 0, 100, Map.of(0, 0L, 1, 20L, 2, 80L));
        manager.addRemoteLogSegmentMetadata(segment0);
        assertEquals(Optional.empty(), manager.remoteLogSegmentMetadata(TP0, 1, 40), "still copying");
        for (int epoch = 0; epoch <= 2; epoch++) {
            assertEquals(Optional.empty(), manager.highestOffsetForEpoch(TP0, epoch), "still copying");
        }
        RemoteLogSegmentMetadataUpdate finish0 = update(segment0, COPY_SEGMENT_FINISHED);
        manager.updateRemoteLogSegmentMetadata(finish0);
        RemoteLogSegmentMetadata expected0 = segment0.createWithUpdates(finish0);
        // segment 1: offsets 101-200, no leader change, epochs (2,101)
        RemoteLogSegmentMetadata segment1 =
                upsert(manager, started(TP0, 101, 200, Map.of(2, 101L)), COPY_SEGMENT_FINISHED);
        // segment 2: offsets 201-300, moved to epoch 3 in between, epochs (2,201), (3,240)
        RemoteLogSegmentMetadata segment2 =
                upsert(manager, started(TP0, 201, 300, Map.of(2, 201L, 3, 240L)), COPY_SEGMENT_FINISHED);
        // segment 3: offsets 250-400, epochs (3,250), (4,370)
        RemoteLogSegmentMetadata segment3 =
                upsert(manager, started(TP0, 250, 400, Map.of(3, 250L, 4, 370L)), COPY_SEGMENT_FINISHED);

        assertEquals(Optional.of(expected0), manager.remoteLogSegmentMetadata(TP0, 1, 40));
        assertEquals(Optional.of(segment1), manager.remoteLogSegmentMetadata(TP0, 2, 110));
        assertEquals(Optional.of(segment2), manager.remoteLogSegmentMetadata(TP0, 3, 240));
        assertEquals(Optional.of(segment3), manager.remoteLogSegmentMetadata(TP0, 3, 250));
        assertEquals(Optional.of(segment3), manager.remoteLogSegmentMetadata(TP0, 4, 375));
        assertEquals(Optional.empty(), manager.remoteLogSegmentMetadata(TP0, 1, 110), "epoch 1 ended at 79");
        assertEquals(Optional.empty(), manager.remoteLogSegmentMetadata(TP0, 4, 401), "past the last segment");
        assertEquals(Optional.empty(), manager.remoteLogSegmentMetadata(TP0, 5, 301), "no such epoch");

        manager.updateRemoteLogSegmentMetadata(update(expected0, DELETE_SEGMENT_STARTED));
        assertEquals(Optional.empty(), manager.remoteLogSegmentMetadata(TP0, 0, 10));
        manager.updateRemoteLogSegmentMetadata(update(expected0, DELETE_SEGMENT_FINISHED));
        assertEquals(Optional.empty(), manager.remoteLogSegmentMetadata(TP0, 0, 10));

        // The highest offsets outlive the deletion of segment 0.
        Map<Integer, Long> expectedHighest = Map.of(0, 19L, 1, 79L, 2, 239L, 3, 369L, 4, 400L);
        for (Map.Entry<Integer, Long> entry : expectedHighest.entrySet()) {
            assertEquals(
                    Optional.of(entry.getValue()),
                    highest(entry.getKey()),
                    "highest offset of epoch " + entry.getKey());
        }
        assertEquals(Optional.empty(), manager.highestOffsetForEpoch(TP0, 5));
    }

    // Kafka's testCacheSegmentWithCopySegmentStartedState.
    @Test
    void aCopyInProgressIsListedButNotReadable() throws Exception {
        RemoteLogSegmentMetadata segment = upsert(manager, started(TP0, 0, 50, Map.of(0, 0L)), COPY_SEGMENT_STARTED);
        assertEquals(Optional.empty(), manager.remoteLogSegmentMetadata(TP0, 0, 0));
        assertEquals(Optional.empty(), manager.highestOffsetForEpoch(TP0, 0));
        assertEquals(List.of(segment), list(manager.listRemoteLogSegments(TP0, 0)));
        assertEquals(List.of(segment), list(manager.listRemoteLogSegments(TP0)));
    }

    // Kafka's testCacheSegmentWithCopySegmentFinishedState.
    @Test
    void aFinishedCopyIsReadableAndListed() throws Exception {
        RemoteLogSegmentMetadata segment =
                upsert(manager, started(TP0, 101, 200, Map.of(0, 101L)), COPY_SEGMENT_FINISHED);
        assertEquals(Optional.of(segment), manager.remoteLogSegmentMetadata(TP0, 0, 150));
        assertEquals(Optional.of(segment), manager.remoteLogSegmentMetadata(TP0, 0, 101));
        assertEquals(Optional.of(segment), manager.remoteLogSegmentMetadata(TP0, 0, 200));
        assertEquals(Optional.empty(), manager.remoteLogSegmentMetadata(TP0, 0, 100));
        assertEquals(Optional.empty(), manager.remoteLogSegmentMetadata(TP0, 0, 201));
        assertEquals(List.of(segment), list(manager.listRemoteLogSegments(TP0, 0)));
        assertEquals(List.of(segment), list(manager.listRemoteLogSegments(TP0)));
    }

    // Kafka's testCacheSegmentWithDeleteSegmentStartedState.
    @Test
    void aSegmentBeingDeletedIsListedButNotReadable() throws Exception {
        RemoteLogSegmentMetadata segment =
                upsert(manager, started(TP0, 201, 300, Map.of(0, 201L)), COPY_SEGMENT_FINISHED);
        RemoteLogSegmentMetadataUpdate deleting = update(segment, DELETE_SEGMENT_STARTED);
        manager.updateRemoteLogSegmentMetadata(deleting);
        assertEquals(Optional.empty(), manager.remoteLogSegmentMetadata(TP0, 0, 250));
        assertEquals(List.of(segment.createWithUpdates(deleting)), list(manager.listRemoteLogSegments(TP0, 0)));
        assertEquals(List.of(segment.createWithUpdates(deleting)), list(manager.listRemoteLogSegments(TP0)));
        assertEquals(Optional.of(300L), manager.highestOffsetForEpoch(TP0, 0));
    }

    // Kafka's testCacheSegmentsWithDeleteSegmentFinishedState.
    @Test
    void aDeletedSegmentDisappears() throws Exception {
        RemoteLogSegmentMetadata segment =
                upsert(manager, started(TP0, 301, 400, Map.of(0, 301L)), DELETE_SEGMENT_STARTED);
        assertEquals(Optional.empty(), manager.remoteLogSegmentMetadata(TP0, 0, 350));
        manager.updateRemoteLogSegmentMetadata(update(segment, DELETE_SEGMENT_FINISHED));
        assertEquals(List.of(), list(manager.listRemoteLogSegments(TP0, 0)));
        assertEquals(List.of(), list(manager.listRemoteLogSegments(TP0)));
        assertEquals(Optional.empty(), manager.highestOffsetForEpoch(TP0, 0), "it never finished copying");
    }

    @Test
    void anEpochThatEndsInsideASegment() throws Exception {
        // Leadership moved from epoch 4 to epoch 5 at offset 60, inside the segment.
        RemoteLogSegmentMetadata segment =
                upsert(manager, started(TP0, 0, 100, Map.of(4, 0L, 5, 60L)), COPY_SEGMENT_FINISHED);
        assertEquals(Optional.of(segment), manager.remoteLogSegmentMetadata(TP0, 4, 0));
        assertEquals(Optional.of(segment), manager.remoteLogSegmentMetadata(TP0, 4, 59));
        assertEquals(Optional.empty(), manager.remoteLogSegmentMetadata(TP0, 4, 60), "epoch 4 ended at 59");
        assertEquals(Optional.empty(), manager.remoteLogSegmentMetadata(TP0, 5, 59), "epoch 5 starts at 60");
        assertEquals(Optional.of(segment), manager.remoteLogSegmentMetadata(TP0, 5, 60));
        assertEquals(Optional.of(segment), manager.remoteLogSegmentMetadata(TP0, 5, 100));
        assertEquals(Optional.empty(), manager.remoteLogSegmentMetadata(TP0, 5, 101));
        assertEquals(Optional.of(59L), highest(4));
        assertEquals(Optional.of(100L), highest(5));
    }

    @Test
    void aSegmentSpanningSeveralEpochsAnswersForEach() throws Exception {
        RemoteLogSegmentMetadata before = finished(manager, 1, 0, 99);
        RemoteLogSegmentMetadata spanning =
                upsert(manager, started(TP0, 100, 199, Map.of(1, 100L, 2, 120L, 3, 150L)), COPY_SEGMENT_FINISHED);
        RemoteLogSegmentMetadata after = finished(manager, 3, 200, 299);
        assertEquals(Optional.of(before), manager.remoteLogSegmentMetadata(TP0, 1, 99));
        assertEquals(Optional.of(spanning), manager.remoteLogSegmentMetadata(TP0, 1, 119));
        assertEquals(Optional.empty(), manager.remoteLogSegmentMetadata(TP0, 1, 120));
        assertEquals(Optional.of(spanning), manager.remoteLogSegmentMetadata(TP0, 2, 149));
        assertEquals(Optional.empty(), manager.remoteLogSegmentMetadata(TP0, 2, 150));
        assertEquals(Optional.of(spanning), manager.remoteLogSegmentMetadata(TP0, 3, 199));
        assertEquals(Optional.of(after), manager.remoteLogSegmentMetadata(TP0, 3, 200));
        assertEquals(Optional.empty(), manager.remoteLogSegmentMetadata(TP0, 2, 10), "below the epoch's first offset");
        assertEquals(List.of(before, spanning), list(manager.listRemoteLogSegments(TP0, 1)));
        assertEquals(List.of(spanning), list(manager.listRemoteLogSegments(TP0, 2)));
        assertEquals(List.of(spanning, after), list(manager.listRemoteLogSegments(TP0, 3)));
        assertEquals(Optional.of(119L), highest(1));
        assertEquals(Optional.of(149L), highest(2));
        assertEquals(Optional.of(299L), highest(3));
    }

    // Kafka's RemoteLogLeaderEpochStateTest.handleSegmentWithCopySegmentFinishedStateForOverlappingSegments: a new
    // leader uploads a segment that covers an earlier leader's upload.
    @Test
    void anOverlappingUploadSupersedesTheEarlierOne() throws Exception {
        RemoteLogSegmentMetadata earlier = finished(manager, 0, 10, 100);
        RemoteLogSegmentMetadata later = finished(manager, 0, 5, 150);
        assertEquals(Optional.of(later), manager.remoteLogSegmentMetadata(TP0, 0, 11));
        assertEquals(Optional.of(later), manager.remoteLogSegmentMetadata(TP0, 0, 5));
        assertEquals(List.of(later, earlier), list(manager.listRemoteLogSegments(TP0, 0)), "kept for cleanup");
        assertEquals(Optional.of(150L), highest(0));
    }

    // Kafka's ...ForMultipleOverlappingSegments.
    @Test
    void severalOverlappingUploads() throws Exception {
        RemoteLogSegmentMetadata s1 = finished(manager, 0, 10, 100);
        RemoteLogSegmentMetadata s2 = finished(manager, 0, 5, 150);
        RemoteLogSegmentMetadata s3 = finished(manager, 0, 148, 155);
        RemoteLogSegmentMetadata s4 = finished(manager, 0, 4, 200);
        assertEquals(Optional.of(s4), manager.remoteLogSegmentMetadata(TP0, 0, 11));
        assertEquals(Optional.of(s4), manager.remoteLogSegmentMetadata(TP0, 0, 149));
        assertEquals(List.of(s4, s2, s1, s3), list(manager.listRemoteLogSegments(TP0, 0)));
        assertEquals(Optional.of(200L), highest(0));
    }

    // Kafka's ...ForDuplicateSegments and ...ForSegmentsWithSameStartOffset.
    @Test
    void aDuplicateUploadOfTheSameOffsetsWins() throws Exception {
        RemoteLogSegmentMetadata s1 = finished(manager, 0, 10, 100);
        RemoteLogSegmentMetadata s2 = finished(manager, 0, 10, 100);
        assertEquals(Optional.of(s2), manager.remoteLogSegmentMetadata(TP0, 0, 11));
        RemoteLogSegmentMetadata s3 = finished(manager, 0, 10, 150);
        assertEquals(Optional.of(s3), manager.remoteLogSegmentMetadata(TP0, 0, 11));
        assertEquals(Optional.of(s3), manager.remoteLogSegmentMetadata(TP0, 0, 111));
        assertEquals(Set.of(s1, s2, s3), Set.copyOf(list(manager.listRemoteLogSegments(TP0, 0))));
        assertEquals(Optional.of(150L), highest(0));
    }

    // Kafka's RemoteLogLeaderEpochStateTest.testListAllRemoteLogSegmentsShouldReturnSortedSegments.
    @Test
    void listingMixesReadableAndUnreferencedSegmentsByStartOffset() throws Exception {
        RemoteLogSegmentMetadata s1 = upsert(manager, started(TP0, 0, 4, Map.of(0, 0L)), COPY_SEGMENT_STARTED);
        RemoteLogSegmentMetadata s2 = finished(manager, 0, 5, 10);
        RemoteLogSegmentMetadata s3 = finished(manager, 0, 11, 100);
        RemoteLogSegmentMetadata s4 = finished(manager, 0, 9, 150);
        assertEquals(List.of(s1, s2, s4, s3), list(manager.listRemoteLogSegments(TP0, 0)));
        assertEquals(Optional.of(s2), manager.remoteLogSegmentMetadata(TP0, 0, 8));
        assertEquals(Optional.of(s4), manager.remoteLogSegmentMetadata(TP0, 0, 50));
    }

    @Test
    void aShorterUploadAtTheSameStartReplacesTheReadableOneButKeepsItListed() throws Exception {
        RemoteLogSegmentMetadata longer = finished(manager, 0, 10, 150);
        RemoteLogSegmentMetadata shorter = finished(manager, 0, 10, 100);
        // As in Kafka, the later copy is the one read at that start offset...
        assertEquals(Optional.of(shorter), manager.remoteLogSegmentMetadata(TP0, 0, 50));
        assertEquals(Optional.empty(), manager.remoteLogSegmentMetadata(TP0, 0, 120));
        // ...and the replaced copy, which Kafka forgets for the epoch, stays listed so that it can be deleted.
        assertEquals(
                List.of(longer, shorter),
                list(manager.listRemoteLogSegments(TP0, 0)).stream()
                        .sorted(Comparator.comparingLong(RemoteLogSegmentMetadata::endOffset)
                                .reversed())
                        .toList());
        assertEquals(Optional.of(150L), highest(0));
    }

    @Test
    void lookupsInOnePartitionIgnoreAnother() throws Exception {
        finished(manager, 0, 0, 100);
        upsert(manager, started(Fixtures.TP1, 0, 500, Map.of(0, 0L)), COPY_SEGMENT_FINISHED);
        assertEquals(Optional.of(100L), highest(0));
        assertEquals(Optional.of(500L), manager.highestOffsetForEpoch(Fixtures.TP1, 0));
        assertEquals(Optional.empty(), manager.remoteLogSegmentMetadata(TP0, 0, 300));
    }

    private Optional<Long> highest(int epoch) throws Exception {
        return manager.highestOffsetForEpoch(TP0, epoch);
    }
}
