package io.krabka.kernel.tiered;

import io.krabka.kernel.log.LogSegment;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.log.config.LogConfig;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A rolled segment to copy, with the base offset of the segment after it (Kafka's {@code EnrichedLogSegment}):
 * the copied segment ends just before it, and the producer snapshot to copy is the one taken there.
 *
 * @param segment           the local segment
 * @param nextSegmentOffset the next segment's base offset
 */
record EnrichedLogSegment(LogSegment segment, long nextSegmentOffset) {

    /**
     * The segments to copy, oldest first (Kafka's {@code candidateLogSegments}): from the one holding the offset after
     * {@code copiedOffset} (or the log start offset), each rolled segment whose next segment starts at or below the
     * last stable offset, as long as {@code remote.copy.lag.*} lets it go: a segment goes once its newest record is
     * as old as {@code remote.copy.lag.ms}, or once {@code remote.copy.lag.bytes} newer local bytes follow it; a lag
     * of -1 (after {@link LogConfig#remoteCopyLagMs()} resolved it) does not apply, and with neither applying the
     * segment goes at once. The first segment held back holds the later ones back too: copies never leave a gap.
     */
    static List<EnrichedLogSegment> candidates(UnifiedLog log, long copiedOffset, long nowMs) throws IOException {
        long fromOffset = Math.max(copiedOffset + 1, log.logStartOffset());
        long lastStableOffset = log.lastStableOffset();
        List<LogSegment> segments = log.logSegments(fromOffset, Long.MAX_VALUE);
        List<EnrichedLogSegment> candidates = new ArrayList<>();
        for (int i = 0; i + 1 < segments.size(); i++) {
            long next = segments.get(i + 1).baseOffset();
            if (next > lastStableOffset || !isPastCopyLag(log.config(), segments, i, nowMs)) {
                break;
            }
            candidates.add(new EnrichedLogSegment(segments.get(i), next));
        }
        return candidates;
    }

    private static boolean isPastCopyLag(LogConfig config, List<LogSegment> segments, int index, long nowMs)
            throws IOException {
        long lagMs = config.remoteCopyLagMs();
        long lagBytes = config.remoteCopyLagBytes();
        if (lagMs < 0 && lagBytes < 0) {
            return true;
        }
        if (lagMs >= 0 && nowMs - segments.get(index).largestTimestamp() >= lagMs) {
            return true;
        }
        if (lagBytes >= 0) {
            long newerBytes = 0;
            for (int i = index + 1; i < segments.size(); i++) {
                newerBytes += segments.get(i).size();
            }
            return newerBytes >= lagBytes;
        }
        return false;
    }
}
