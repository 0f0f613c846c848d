package io.krabka.kernel.restore.authenticate;

import io.krabka.archive.manifest.ObjectEntry;
import io.krabka.kernel.restore.ArchivedSegment;
import io.krabka.kernel.restore.AuthenticationException;
import io.krabka.kernel.restore.RestoreIntegrityException;
import io.krabka.kernel.restore.SegmentAuthority.PartitionAuthority;
import io.krabka.kernel.restore.SegmentAuthority.SegmentCheck;
import io.krabka.kernel.restore.TornCopyException;
import io.krabka.objectstore.SegmentArtifact;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.objectstore.StoredObject;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One partition's copies as its authenticated chain claims them: per segment id, the objects its manifest lists
 * (the claims only, a few hundred bytes a segment, never the segment's bytes). A copy's listing must be exactly
 * what its manifest lists — every listed object there, of the claimed size and version, and nothing the manifest
 * does not list, since whatever the restore would read beside the {@code .log} must be vouched for too. Used by
 * the one thread restoring the partition.
 */
final class ClaimedSegments implements PartitionAuthority {

    private final Map<Uuid, List<ObjectEntry>> claims;
    private final AuthenticationTally tally;

    ClaimedSegments(Map<Uuid, List<ObjectEntry>> claims, AuthenticationTally tally) {
        this.claims = Map.copyOf(claims);
        this.tally = tally;
    }

    @Override
    public SegmentCheck segment(ArchivedSegment segment) throws RestoreIntegrityException {
        List<ObjectEntry> claimed = claims.get(segment.segmentId());
        if (claimed == null) {
            String key = segment.object(SegmentArtifact.SEGMENT)
                    .or(segment::abandoned)
                    .or(segment::manifest)
                    .map(StoredObject::key)
                    .orElse(segment.segmentId().toString());
            throw new AuthenticationException(
                    key,
                    segment.abandoned().isPresent()
                            ? "the copy was abandoned: no manifest of the chain vouches for it"
                            : "no manifest of the partition's chain vouches for the copy");
        }
        Map<SegmentArtifact, StoredObject> unclaimed = new EnumMap<>(SegmentArtifact.class);
        unclaimed.putAll(segment.objects());
        Optional<ObjectEntry> log = Optional.empty();
        for (ObjectEntry entry : claimed) {
            SegmentArtifact artifact = SegmentArtifact.ofSuffix(entry.suffix())
                    .orElseThrow(() -> new AuthenticationException(
                            entry.key(), "the manifest lists an object of unknown suffix \"" + entry.suffix() + "\""));
            StoredObject listed = unclaimed.remove(artifact);
            if (listed == null) {
                throw new TornCopyException(entry.key(), "the manifest lists the object, the archive does not hold it");
            }
            check(entry, listed);
            if (artifact == SegmentArtifact.SEGMENT) {
                log = Optional.of(entry);
            }
        }
        if (!unclaimed.isEmpty()) {
            throw new AuthenticationException(
                    unclaimed.values().iterator().next().key(), "the copy's manifest does not list the object");
        }
        ObjectEntry logClaim = log.orElseThrow(() -> new TornCopyException(
                segment.manifest()
                        .map(StoredObject::key)
                        .orElse(segment.segmentId().toString()),
                "the manifest lists no .log"));
        // The .log counts once its bytes pass, in LogCheck.finish.
        tally.objectsChecked(claimed.size() - 1);
        return new LogCheck(logClaim, tally);
    }

    /** The listed object must be the one claimed: its key, its size, and its version where both record one. */
    private static void check(ObjectEntry entry, StoredObject listed) throws AuthenticationException {
        if (!listed.key().equals(entry.key())) {
            throw new AuthenticationException(
                    listed.key(), "the manifest claims " + entry.key() + " as the copy's ." + entry.suffix());
        }
        if (listed.size() != entry.sizeBytes()) {
            throw new AuthenticationException(
                    listed.key(),
                    "the archive lists " + listed.size() + " bytes, the manifest claims " + entry.sizeBytes());
        }
        if (listed.version().isPresent()
                && entry.versionId().isPresent()
                && !listed.version().equals(entry.versionId())) {
            throw new AuthenticationException(
                    listed.key(),
                    "the archive lists version " + listed.version().get() + ", the manifest claims version "
                            + entry.versionId().get());
        }
    }
}
