package io.krabka.kernel.restore.report;

import io.krabka.spi.common.Uuid;
import java.util.Objects;

/**
 * A segment that was not restored, and why: corrupt under {@code --continue-on-corrupt} (then nothing after it in
 * its partition is restored either), deleted by the old cluster, or an abandoned copy.
 *
 * @param topic     the topic
 * @param partition the partition
 * @param segmentId the segment's id
 * @param reason    one line: why
 */
public record SkippedSegment(String topic, int partition, Uuid segmentId, String reason) {

    /** Checks the values. */
    public SkippedSegment {
        Objects.requireNonNull(topic, "topic");
        Objects.requireNonNull(segmentId, "segmentId");
        Objects.requireNonNull(reason, "reason");
    }
}
