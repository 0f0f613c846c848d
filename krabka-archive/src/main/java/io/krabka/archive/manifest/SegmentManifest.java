package io.krabka.archive.manifest;

import java.util.Objects;
import java.util.Optional;

/**
 * A segment's manifest, {@code <base>-<segment id>.manifest} beside its objects: the archive's commit point, written
 * last.
 *
 * @param body      what it attests
 * @param signature the signature of the body's chain head, a sibling of the body and never a member of it; empty
 *                  for an unsigned manifest
 */
public record SegmentManifest(ManifestBody body, Optional<ManifestSignature> signature) {

    /** Validates the parts. */
    public SegmentManifest {
        Objects.requireNonNull(body, "body");
        Objects.requireNonNull(signature, "signature");
    }
}
