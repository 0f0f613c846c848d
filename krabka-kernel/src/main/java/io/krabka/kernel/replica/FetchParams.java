package io.krabka.kernel.replica;

import io.krabka.kernel.log.FetchIsolation;
import java.util.Objects;

/**
 * A fetch's request-wide settings: Kafka's {@code FetchParams}.
 *
 * @param replicaId the fetching replica, -1 for a consumer
 * @param maxWaitMs how long the fetch may wait for {@code minBytes}
 * @param minBytes  the bytes the fetch waits for
 * @param maxBytes  the most bytes the response holds (the first batch is sent whole even if larger)
 * @param isolation how far reads go: the high watermark (read_uncommitted) or the last stable offset
 *                  (read_committed)
 */
public record FetchParams(int replicaId, long maxWaitMs, int minBytes, int maxBytes, FetchIsolation isolation) {

    /** Checks the parts. */
    public FetchParams {
        Objects.requireNonNull(isolation, "isolation");
        if (maxBytes < 0) {
            throw new IllegalArgumentException("negative max bytes " + maxBytes);
        }
    }
}
