package io.krabka.kernel.restore;

import io.krabka.objectstore.SegmentArtifact;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.objectstore.StoredObject;
import java.util.Collections;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One segment copy found in an archive: its objects by artifact, and the write-once archive's manifest and
 * abandonment record when there are any. Whether the copy is whole is for the verify stage to say.
 *
 * @param segmentId   the segment's id
 * @param startOffset its start offset, from its keys; empty in the legacy layout, whose keys carry none
 * @param objects     the artifacts found
 * @param manifest    the write-once archive's manifest of the copy
 * @param abandoned   the write-once archive's record that the copy was abandoned
 */
public record ArchivedSegment(
        Uuid segmentId,
        OptionalLong startOffset,
        Map<SegmentArtifact, StoredObject> objects,
        Optional<StoredObject> manifest,
        Optional<StoredObject> abandoned) {

    /** Freezes the parts. */
    public ArchivedSegment {
        Objects.requireNonNull(segmentId, "segmentId");
        Objects.requireNonNull(startOffset, "startOffset");
        objects = objects.isEmpty() ? Map.of() : Collections.unmodifiableMap(new EnumMap<>(objects));
        Objects.requireNonNull(manifest, "manifest");
        Objects.requireNonNull(abandoned, "abandoned");
    }

    /** The object of an artifact, if the archive holds it. */
    public Optional<StoredObject> object(SegmentArtifact artifact) {
        return Optional.ofNullable(objects.get(artifact));
    }
}
