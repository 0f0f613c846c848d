package io.krabka.kernel.restore.metadata;

import io.krabka.kernel.restore.ArchivedPartition;
import io.krabka.kernel.restore.ArchivedSegment;
import io.krabka.kernel.restore.DiscoveredArchive;
import io.krabka.kernel.restore.report.RemoteLogMetadataReport;
import io.krabka.kernel.restore.report.SkippedSegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The archive as the restore goes on with it once the remote log metadata has had its say: every partition named,
 * without the segments left out.
 *
 * @param archive the partitions and segments to restore
 * @param leftOut the segments left out, and why
 * @param report  what the remote log metadata contributed
 */
public record Reconciliation(DiscoveredArchive archive, List<SkippedSegment> leftOut, RemoteLogMetadataReport report) {

    /** Checks and freezes the parts. */
    public Reconciliation {
        Objects.requireNonNull(archive, "archive");
        leftOut = List.copyOf(leftOut);
        Objects.requireNonNull(report, "report");
    }

    /**
     * The archive as listed, without a snapshot: deleted segments cannot be told from live ones, so all are kept,
     * and the partitions of the legacy layout, whose keys name no topic, are left out, since a topic cannot be
     * restored without its name. Their segments are reported under the topic's id, the only name they have.
     */
    public static Reconciliation withoutSnapshot(DiscoveredArchive archive) {
        List<ArchivedPartition> named = new ArrayList<>();
        List<SkippedSegment> leftOut = new ArrayList<>();
        List<String> notes = new ArrayList<>();
        notes.add("no --rlmm-snapshot: segments the old cluster deleted cannot be told from live ones, and every"
                + " segment in the archive is restored");
        for (ArchivedPartition partition : archive.partitions()) {
            if (partition.topic().isPresent()) {
                named.add(partition);
                continue;
            }
            notes.add("legacy partition " + partition.directory() + " left out: its keys name no topic, only the id "
                    + partition.topicId() + ", and only --rlmm-snapshot names it");
            for (ArchivedSegment segment : partition.segments()) {
                leftOut.add(new SkippedSegment(
                        partition.topicId().toString(),
                        partition.partition(),
                        segment.segmentId(),
                        "a legacy-layout partition whose topic has no name without --rlmm-snapshot"));
            }
        }
        return new Reconciliation(
                new DiscoveredArchive(
                        archive.location(),
                        archive.prefix(),
                        named,
                        archive.unrecognizedKeys(),
                        archive.unrecognizedSample()),
                leftOut,
                new RemoteLogMetadataReport(Optional.empty(), 0, notes));
    }
}
