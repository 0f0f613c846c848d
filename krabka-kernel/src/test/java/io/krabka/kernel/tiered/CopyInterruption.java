package io.krabka.kernel.tiered;

import io.krabka.kernel.log.LogSegment;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.log.checkpoint.LeaderEpochCheckpointFile;
import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.storage.LogSegmentData;
import io.krabka.spi.storage.RemoteLogSegmentId;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import java.util.Optional;
import java.util.TreeMap;

/** What a broker killed in the middle of a copy leaves behind: the data copied, the metadata never finished. */
final class CopyInterruption {

    private CopyInterruption() {}

    /** Copies the local segment at {@code baseOffset} as a copy task starts one, and stops before finishing it. */
    static RemoteLogSegmentMetadata copyWithoutFinishing(TieredBroker broker, TopicIdPartition tp, long baseOffset)
            throws Exception {
        UnifiedLog log = broker.log(tp);
        LogSegment segment = log.logSegments().stream()
                .filter(s -> s.baseOffset() == baseOffset)
                .findFirst()
                .orElseThrow();
        long next = log.logSegments(baseOffset + 1, Long.MAX_VALUE).stream()
                .filter(s -> s.baseOffset() > baseOffset)
                .findFirst()
                .orElseThrow()
                .baseOffset();
        RemoteLogSegmentMetadata started = new RemoteLogSegmentMetadata(
                RemoteLogSegmentId.generateNew(tp),
                baseOffset,
                next - 1,
                segment.largestTimestamp(),
                TieredBroker.NODE,
                broker.time.millis(),
                segment.size(),
                new TreeMap<>(log.leaderEpochCache()
                        .epochWithOffsets()
                        .headMap(
                                log.leaderEpochCache()
                                        .epochForOffset(baseOffset)
                                        .orElseThrow(),
                                true)),
                true);
        broker.rlmm.addRemoteLogSegmentMetadata(started).get();
        broker.rsm.copyLogSegmentData(
                started,
                new LogSegmentData(
                        segment.log().file(),
                        segment.offsetIndex().file(),
                        segment.timeIndex().file(),
                        Optional.empty(),
                        log.producerStateManager().fetchSnapshot(next).orElseThrow(),
                        LeaderEpochCheckpointFile.toByteBuffer(
                                log.leaderEpochCache().epochEntries())));
        return started;
    }
}
