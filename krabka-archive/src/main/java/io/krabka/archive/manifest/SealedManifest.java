package io.krabka.archive.manifest;

import java.util.Objects;

/**
 * A manifest ready to be written: the document, the chain head it makes, and its JSON.
 *
 * @param manifest the manifest
 * @param head     its body's chain head, for the chain receipt
 * @param json     the bytes to store as {@code <base>-<segment id>.manifest}; copied in and out
 */
public record SealedManifest(SegmentManifest manifest, ChainHead head, byte[] json) {

    /** Validates and copies the parts. */
    public SealedManifest {
        Objects.requireNonNull(manifest, "manifest");
        Objects.requireNonNull(head, "head");
        json = Objects.requireNonNull(json, "json").clone();
    }

    /** A copy of the JSON. */
    @Override
    public byte[] json() {
        return json.clone();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SealedManifest that && manifest.equals(that.manifest) && head.equals(that.head);
    }

    @Override
    public int hashCode() {
        return Objects.hash(manifest, head);
    }

    @Override
    public String toString() {
        return "SealedManifest[head=" + head + ", manifest=" + manifest + "]";
    }
}
