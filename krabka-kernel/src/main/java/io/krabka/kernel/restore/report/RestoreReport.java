package io.krabka.kernel.restore.report;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a restore did: the report stage's value, rendered as text or as JSON in the original Krabka's shape.
 *
 * @param dryRun            whether nothing but the cluster metadata was written
 * @param logDir            the target log directory
 * @param clusterId         the restored cluster's id
 * @param authentication    the authenticated restore's outcome; empty without trusted keys
 * @param metadata          what became of the cluster metadata beyond the topics
 * @param remoteLogMetadata what the old cluster's remote log metadata contributed
 * @param partitions        the restored partitions, by topic and partition
 * @param skipped           the segments left out, with why
 * @param unrecognizedKeys  how many keys under the prefix belong to no segment
 * @param unrecognizedSample the first of them
 */
public record RestoreReport(
        boolean dryRun,
        Path logDir,
        String clusterId,
        Optional<AuthenticationReport> authentication,
        MetadataRestoreReport metadata,
        RemoteLogMetadataReport remoteLogMetadata,
        List<PartitionReport> partitions,
        List<SkippedSegment> skipped,
        long unrecognizedKeys,
        List<String> unrecognizedSample) {

    /** Freezes the parts. */
    public RestoreReport {
        Objects.requireNonNull(logDir, "logDir");
        Objects.requireNonNull(clusterId, "clusterId");
        Objects.requireNonNull(authentication, "authentication");
        Objects.requireNonNull(metadata, "metadata");
        Objects.requireNonNull(remoteLogMetadata, "remoteLogMetadata");
        partitions = List.copyOf(partitions);
        skipped = List.copyOf(skipped);
        unrecognizedSample = List.copyOf(unrecognizedSample);
    }

    /** The records kept over every partition. */
    public long recordsKept() {
        return partitions.stream().mapToLong(PartitionReport::recordsKept).sum();
    }

    /** The bytes written over every partition. */
    public long bytesWritten() {
        return partitions.stream().mapToLong(PartitionReport::bytesWritten).sum();
    }
}
