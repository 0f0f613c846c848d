package io.krabka.archive.verify;

import io.krabka.archive.manifest.ChainHead;
import java.util.Objects;
import java.util.Optional;

/**
 * An expected head with no partition to compare it with: the partition named is not in the archive (or not
 * among those checked), or the archive is empty.
 *
 * @param partitionDir the directory the head was given for; empty for a bare {@code --expect-head HEX}
 * @param expected     the head
 */
public record UnmatchedHead(Optional<String> partitionDir, ChainHead expected) {

    /** Validates the parts. */
    public UnmatchedHead {
        Objects.requireNonNull(partitionDir, "partitionDir");
        Objects.requireNonNull(expected, "expected");
    }
}
