package io.krabka.testkit;

import static io.krabka.spi.storage.RemoteLogSegmentState.COPY_SEGMENT_FINISHED;
import static io.krabka.spi.storage.RemoteLogSegmentState.DELETE_SEGMENT_FINISHED;
import static io.krabka.spi.storage.RemoteLogSegmentState.DELETE_SEGMENT_STARTED;
import static io.krabka.testkit.MetadataScript.describe;
import static io.krabka.testkit.SegmentBuilder.segment;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.function.Executable;

/**
 * The history the concurrency rule of {@link RemoteLogMetadataManagerConformance} writes to each partition, the
 * reads that race it, and the state it must leave. Each partition gets {@value #SEGMENTS} segments of 100 offsets,
 * a new leader epoch every {@value #SEGMENTS_PER_EPOCH} segments, and some of them deleted part or all of the way.
 */
final class ConcurrentHistory {

    static final int SEGMENTS = 20;
    static final int SEGMENTS_PER_EPOCH = 5;
    private static final int EPOCHS = SEGMENTS / SEGMENTS_PER_EPOCH;
    private static final int READ_ROUNDS = 20;

    private ConcurrentHistory() {}

    /** Writes the history of one partition, collecting in {@code live} what the manager must hold at the end. */
    static void write(MetadataScript script, TopicIdPartition tp, List<RemoteLogSegmentMetadata> live) {
        for (int k = 0; k < SEGMENTS; k++) {
            RemoteLogSegmentMetadata s = script.copied(segment(tp)
                    .offsets(k * 100L, k * 100L + 99)
                    .epoch(k / SEGMENTS_PER_EPOCH, k * 100L)
                    .size(1_000 + k));
            switch (k % 4) {
                case 1 -> live.add(script.advance(s, DELETE_SEGMENT_STARTED));
                case 3 -> script.advance(script.advance(s, DELETE_SEGMENT_STARTED), DELETE_SEGMENT_FINISHED);
                default -> live.add(s);
            }
        }
    }

    /**
     * Reads every partition while the writers run. The answers change under it, so it checks only what must hold
     * at every moment: a lookup finds a readable segment that holds the offset, a listing is sorted and holds no
     * deleted segment.
     */
    static void read(MetadataScript script, List<TopicIdPartition> partitions) throws Exception {
        for (int round = 0; round < READ_ROUNDS; round++) {
            for (TopicIdPartition tp : partitions) {
                for (int epoch = 0; epoch < EPOCHS; epoch++) {
                    long offset = (epoch * SEGMENTS_PER_EPOCH + round % SEGMENTS_PER_EPOCH) * 100L + round;
                    Optional<RemoteLogSegmentMetadata> found = script.lookup(tp, epoch, offset);
                    if (found.isPresent()) {
                        RemoteLogSegmentMetadata s = found.get();
                        assertTrue(
                                s.state() == COPY_SEGMENT_FINISHED
                                        && s.startOffset() <= offset
                                        && offset <= s.endOffset()
                                        && s.segmentLeaderEpochs().containsKey(epoch),
                                "remoteLogSegmentMetadata(epoch " + epoch + ", offset " + offset + ") found "
                                        + describe(s));
                    }
                    List<RemoteLogSegmentMetadata> listed = script.list(tp, epoch);
                    assertEquals(
                            MetadataScript.byStartOffset(listed), listed, "listRemoteLogSegments(epoch " + epoch + ")");
                    assertTrue(
                            listed.stream().noneMatch(s -> s.state() == DELETE_SEGMENT_FINISHED),
                            "listRemoteLogSegments(epoch " + epoch + ") lists a deleted segment");
                }
            }
        }
    }

    /** Adds the checks of what one partition must hold once its history is written. */
    static void expectFinalState(
            MetadataScript script, TopicIdPartition tp, List<RemoteLogSegmentMetadata> live, List<Executable> checks) {
        checks.add(script.listIs(tp, live.toArray(RemoteLogSegmentMetadata[]::new)));
        for (RemoteLogSegmentMetadata s : live) {
            int epoch = s.segmentLeaderEpochs().firstKey();
            checks.add(script.lookupIs(tp, epoch, s.startOffset() + 50, s.state() == COPY_SEGMENT_FINISHED ? s : null));
        }
        for (int epoch = 0; epoch < EPOCHS; epoch++) {
            checks.add(script.highestOffsetIs(tp, epoch, ((epoch + 1L) * SEGMENTS_PER_EPOCH) * 100 - 1));
        }
    }
}
