package io.krabka.archive.verify;

import java.util.Objects;

/**
 * An abandonment record that excuses nothing — unreadable, unsigned, not signed by a trusted key, or not at the
 * key its fields name — so the objects it names stay orphans.
 *
 * @param key    the record's key
 * @param reason why it is not taken at its word
 */
public record RejectedRecord(String key, String reason) {

    /** Validates the parts. */
    public RejectedRecord {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(reason, "reason");
    }
}
