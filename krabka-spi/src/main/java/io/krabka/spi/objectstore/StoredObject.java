package io.krabka.spi.objectstore;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * An object as the store describes it.
 *
 * @param key                the object's key
 * @param size               its size in bytes
 * @param etag               the store's entity tag, if it gives one: a locator, never an integrity proof
 * @param version            the version (S3 version id, GCS generation) where the bucket keeps them
 * @param retention          the retention that holds the object, as the store reports it for this object
 * @param retainUntil        until when the retention holds it, where the store says
 * @param createPrecondition whether the write that made it asked the store to refuse an existing key; false for
 *                           objects described by a read, a head or a listing
 */
public record StoredObject(
        String key,
        long size,
        Optional<String> etag,
        Optional<String> version,
        RetentionMode retention,
        Optional<Instant> retainUntil,
        boolean createPrecondition) {

    /** Validates the parts. */
    public StoredObject {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(etag, "etag");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(retention, "retention");
        Objects.requireNonNull(retainUntil, "retainUntil");
        if (size < 0) {
            throw new IllegalArgumentException("an object's size cannot be negative: " + size + " of " + key);
        }
    }

    /**
     * An object of a store that keeps no versions and enforces no retention, described by its key and size.
     *
     * @param key  the object's key
     * @param size its size in bytes
     * @return the object, with no entity tag, version or retention
     */
    public static StoredObject unprotected(String key, long size) {
        return new StoredObject(
                key, size, Optional.empty(), Optional.empty(), RetentionMode.NONE, Optional.empty(), false);
    }
}
