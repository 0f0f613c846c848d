package io.krabka.spi.objectstore;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * The protection a bucket gives every new object, as the store reports it.
 *
 * @param location         where the store is, for messages ({@link ObjectStore#location()})
 * @param versioned        whether the bucket keeps every version of a key (S3 versioning, GCS object versioning)
 * @param mode             the default retention's mode; {@link RetentionMode#NONE} when there is none
 * @param defaultRetention how long the default retention keeps each new object; empty when there is none
 * @param detail           what the store said, in its own words, for messages (e.g. "Object Lock COMPLIANCE 30
 *                         days", "retention policy 7 days, not locked")
 */
public record StoreProtection(
        String location, boolean versioned, RetentionMode mode, Optional<Duration> defaultRetention, String detail) {

    /** Validates the parts. */
    public StoreProtection {
        Objects.requireNonNull(location, "location");
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(defaultRetention, "defaultRetention");
        Objects.requireNonNull(detail, "detail");
        if (mode == RetentionMode.NONE && defaultRetention.isPresent()) {
            throw new IllegalArgumentException("a retention period without a mode: " + defaultRetention.get());
        }
        if (defaultRetention.isPresent()
                && (defaultRetention.get().isNegative()
                        || defaultRetention.get().isZero())) {
            throw new IllegalArgumentException("a default retention must be positive: " + defaultRetention.get());
        }
    }

    /**
     * A store that enforces nothing: a local directory, a plain bucket.
     *
     * @param location where the store is, for messages
     * @param detail   what the store said, for messages
     * @return the protection of an unversioned store without retention
     */
    public static StoreProtection none(String location, String detail) {
        return new StoreProtection(location, false, RetentionMode.NONE, Optional.empty(), detail);
    }
}
