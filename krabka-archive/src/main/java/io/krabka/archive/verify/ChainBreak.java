package io.krabka.archive.verify;

import java.util.Objects;
import java.util.Optional;

/**
 * The first place a partition's archive stops being what its manifests attest: the walk of that partition stops
 * here.
 *
 * @param key    the key of the manifest where it breaks
 * @param seq    that manifest's seq (unsigned), when it could be read
 * @param reason what is wrong, in one line
 */
public record ChainBreak(String key, Optional<Long> seq, String reason) {

    /** Validates the parts. */
    public ChainBreak {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(seq, "seq");
        Objects.requireNonNull(reason, "reason");
    }

    /** The seq as text, unsigned; empty when the manifest could not be read. */
    public Optional<String> seqText() {
        return seq.map(Long::toUnsignedString);
    }
}
