package io.krabka.kernel.restore;

import io.krabka.archive.ArchiveLayout;
import io.krabka.kernel.restore.bound.RestoreBounds;
import io.krabka.kernel.restore.metadata.ClusterMetadataSnapshot;
import io.krabka.kernel.restore.metadata.RemoteLogMetadataSnapshot;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * What to restore, from where to where: the command line of {@code krabka restore} as values.
 *
 * @param layout            the archive's key prefix
 * @param target            the node to write
 * @param topics            the topics to restore; empty for every topic in the archive
 * @param bounds            the cut and the exclusions, checked against {@code topics} already
 * @param authority         who vouches for the segment copies: {@link SegmentAuthority#UNAUTHENTICATED}, or the
 *                          write-once archive's manifests under trusted keys
 * @param remoteLogMetadata the old cluster's {@code inmemory} remote log metadata snapshot, loaded
 * @param clusterMetadata   a KRaft snapshot of the old cluster's metadata, read
 * @param dryRun            read and verify everything, but write only the cluster metadata
 * @param continueOnCorrupt skip a corrupt segment (and the rest of its partition) rather than stop
 * @param parallelism       how many partitions are restored at once
 */
public record RestoreRequest(
        ArchiveLayout layout,
        RestoreTarget target,
        Set<String> topics,
        RestoreBounds bounds,
        SegmentAuthority authority,
        Optional<RemoteLogMetadataSnapshot> remoteLogMetadata,
        Optional<ClusterMetadataSnapshot> clusterMetadata,
        boolean dryRun,
        boolean continueOnCorrupt,
        int parallelism) {

    /** Checks the values. */
    public RestoreRequest {
        Objects.requireNonNull(layout, "layout");
        Objects.requireNonNull(target, "target");
        topics = Set.copyOf(topics);
        Objects.requireNonNull(bounds, "bounds");
        Objects.requireNonNull(authority, "authority");
        Objects.requireNonNull(remoteLogMetadata, "remoteLogMetadata");
        Objects.requireNonNull(clusterMetadata, "clusterMetadata");
        if (parallelism < 1) {
            throw new IllegalArgumentException("parallelism " + parallelism + " is below 1");
        }
    }
}
