package io.krabka.archive.manifest;

import io.krabka.spi.objectstore.StoredObject;
import java.util.Objects;
import java.util.Optional;

/**
 * One object of a segment, as its manifest names it.
 *
 * @param suffix             the artifact's suffix ({@code log}, {@code index}, ...)
 * @param key                the object's full key in the store
 * @param sizeBytes          its size in bytes, at least 0
 * @param sha256             the digest of its bytes: the entry's only integrity claim
 * @param eTag               the store's entity tag at the write: a locator, not an integrity proof
 * @param versionId          the store's version of the object, where the bucket keeps versions: a locator, read
 *                           by version so that a later version of the key cannot stand in for it
 * @param createPrecondition whether the write asked the store to refuse an existing key. Not part of the canonical
 *                           bytes (the v1 encoding has no place for it), so neither the chain nor the signature
 *                           covers it: it is unauthenticated and only ever informative
 */
public record ObjectEntry(
        String suffix,
        String key,
        long sizeBytes,
        Sha256Digest sha256,
        Optional<String> eTag,
        Optional<String> versionId,
        boolean createPrecondition) {

    /** Validates the parts. */
    public ObjectEntry {
        Objects.requireNonNull(suffix, "suffix");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(sha256, "sha256");
        Objects.requireNonNull(eTag, "eTag");
        Objects.requireNonNull(versionId, "versionId");
        if (sizeBytes < 0) {
            throw new IllegalArgumentException("an object's size is at least 0: " + sizeBytes + " of " + key);
        }
    }

    /** The entry of an object as the store described it after writing it, with the digest of what was written. */
    public static ObjectEntry of(String suffix, StoredObject written, Sha256Digest sha256) {
        return new ObjectEntry(
                suffix,
                written.key(),
                written.size(),
                sha256,
                written.etag(),
                written.version(),
                written.createPrecondition());
    }
}
