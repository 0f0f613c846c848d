package io.krabka.spi.objectstore;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * A write in parts that was started and neither completed nor aborted.
 *
 * @param key       the key it would create
 * @param uploadId  the store's id of the upload
 * @param initiated when it was started, where the store says
 */
public record IncompleteUpload(String key, String uploadId, Optional<Instant> initiated) {

    /** Validates the parts. */
    public IncompleteUpload {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(uploadId, "uploadId");
        Objects.requireNonNull(initiated, "initiated");
    }
}
