package io.krabka.kernel.restore.metadata;

import io.krabka.kernel.restore.ArchivedPartition;
import io.krabka.kernel.restore.ArchivedSegment;
import io.krabka.kernel.restore.MetadataDisagreementException;
import io.krabka.kernel.restore.report.SkippedSegment;
import io.krabka.objectstore.SegmentArtifact;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentState;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One partition's segments in the archive held against the old cluster's remote log metadata of it, by the
 * original Krabka's rules: a segment the cluster was deleting ({@code DELETE_SEGMENT_STARTED}) is left out without
 * a word of disagreement; a segment whose log is in the archive but which the metadata has deleted, or does not
 * know, and a readable segment of the metadata that is not in the archive, are disagreements that stop the restore.
 * Beyond the original: a copy that never finished ({@code COPY_SEGMENT_STARTED}) is left out, since the old cluster
 * never served it and copied its offsets again under another id; the remains of a deleted segment (objects without
 * the log) are left out; a copy its writer abandoned is left for the driver, which skips abandoned copies whatever
 * the metadata says; and a start offset that differs between the two is a disagreement.
 *
 * @param partition the partition as the restore goes on with it: named, with the segments kept, the legacy
 *                  layout's given the start offset the metadata records
 * @param leftOut   the segments left out, and why
 * @param deleted   how many of them the old cluster had deleted, or was deleting
 */
record PartitionReconciliation(ArchivedPartition partition, List<SkippedSegment> leftOut, int deleted) {

    /** Checks and freezes the parts. */
    PartitionReconciliation {
        Objects.requireNonNull(partition, "partition");
        leftOut = List.copyOf(leftOut);
    }

    /**
     * Reconciles {@code archived}, of {@code topic}, with {@code metadata}, every segment the metadata has of it.
     *
     * @throws MetadataDisagreementException naming the partition's directory and the first segment that disagrees
     */
    static PartitionReconciliation of(
            ArchivedPartition archived, String topic, Collection<RemoteLogSegmentMetadata> metadata)
            throws MetadataDisagreementException {
        Map<Uuid, RemoteLogSegmentMetadata> known = new LinkedHashMap<>();
        metadata.forEach(segment -> known.put(segment.remoteLogSegmentId().id(), segment));
        List<ArchivedSegment> kept = new ArrayList<>();
        List<SkippedSegment> leftOut = new ArrayList<>();
        int deleted = 0;
        for (ArchivedSegment segment : archived.segments()) {
            RemoteLogSegmentMetadata recorded = known.remove(segment.segmentId());
            if (recorded == null) {
                if (segment.abandoned().isPresent()) {
                    kept.add(segment);
                } else {
                    leftOut.add(remains(
                            archived,
                            topic,
                            segment,
                            "the remote log metadata has no such segment" + " (never recorded, or deleted)"));
                    deleted++;
                }
                continue;
            }
            if (segment.startOffset().isPresent() && segment.startOffset().getAsLong() != recorded.startOffset()) {
                throw disagreement(
                        archived,
                        segment.segmentId(),
                        "starts at offset " + segment.startOffset().getAsLong() + " in the archive but at "
                                + recorded.startOffset()
                                + " in the remote log metadata");
            }
            switch (recorded.state()) {
                case COPY_SEGMENT_FINISHED ->
                    kept.add(new ArchivedSegment(
                            segment.segmentId(),
                            OptionalLong.of(recorded.startOffset()),
                            segment.objects(),
                            segment.manifest(),
                            segment.abandoned()));
                case COPY_SEGMENT_STARTED ->
                    leftOut.add(skipped(
                            archived,
                            topic,
                            segment,
                            "its copy never finished in the old cluster (COPY_SEGMENT_STARTED)"));
                case DELETE_SEGMENT_STARTED -> {
                    leftOut.add(skipped(
                            archived, topic, segment, "the old cluster was deleting it (DELETE_SEGMENT_STARTED)"));
                    deleted++;
                }
                case DELETE_SEGMENT_FINISHED -> {
                    leftOut.add(
                            remains(archived, topic, segment, "the remote log metadata says DELETE_SEGMENT_FINISHED"));
                    deleted++;
                }
            }
        }
        requireNoneReadable(archived.directory(), known.values());
        return new PartitionReconciliation(
                new ArchivedPartition(
                        archived.directory(), Optional.of(topic), archived.topicId(), archived.partition(), kept),
                leftOut,
                deleted);
    }

    /**
     * Checks that none of {@code missing}, segments of the metadata that the archive lacks, is readable: a copy that
     * never finished or was being deleted may have left nothing behind, a finished one must be there.
     *
     * @param key what names the partition in the message
     * @throws MetadataDisagreementException for the first readable one
     */
    static void requireNoneReadable(String key, Collection<RemoteLogSegmentMetadata> missing)
            throws MetadataDisagreementException {
        for (RemoteLogSegmentMetadata segment : missing) {
            if (segment.state() == RemoteLogSegmentState.COPY_SEGMENT_FINISHED) {
                throw new MetadataDisagreementException(
                        key,
                        "segment " + segment.remoteLogSegmentId().id()
                                + " (offsets " + segment.startOffset() + " to " + segment.endOffset()
                                + ") is COPY_SEGMENT_FINISHED in the remote log metadata but not in the archive");
            }
        }
    }

    /**
     * A segment the metadata has deleted, or does not know, as {@code why} says: left out if only objects other than
     * its log remain, as a deletion interrupted between objects leaves them.
     *
     * @throws MetadataDisagreementException if its log is still in the archive
     */
    private static SkippedSegment remains(
            ArchivedPartition partition, String topic, ArchivedSegment segment, String why)
            throws MetadataDisagreementException {
        if (segment.object(SegmentArtifact.SEGMENT).isPresent()) {
            throw disagreement(partition, segment.segmentId(), "its log is in the archive, but " + why);
        }
        return skipped(partition, topic, segment, why + "; only objects other than its log are left");
    }

    private static MetadataDisagreementException disagreement(
            ArchivedPartition partition, Uuid segment, String detail) {
        return new MetadataDisagreementException(partition.directory(), "segment " + segment + ": " + detail);
    }

    private static SkippedSegment skipped(
            ArchivedPartition partition, String topic, ArchivedSegment segment, String reason) {
        return new SkippedSegment(topic, partition.partition(), segment.segmentId(), reason);
    }
}
