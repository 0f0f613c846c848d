package io.krabka.archive.verify;

import java.util.Objects;
import java.util.Optional;

/**
 * How many of a partition's checked objects have one kind of protection, with one of them as a sample.
 *
 * @param count  the number of objects
 * @param sample the key of one of them, with what protects it; empty when there is none
 */
public record ProtectionCount(long count, Optional<String> sample) {

    /** No object. */
    public static final ProtectionCount NONE = new ProtectionCount(0, Optional.empty());

    /** Validates the parts. */
    public ProtectionCount {
        Objects.requireNonNull(sample, "sample");
        if (count < 0 || (count == 0) != sample.isEmpty()) {
            throw new IllegalArgumentException("a protection count of " + count + " with sample " + sample);
        }
    }

    /** This count and one more object, which becomes the sample if there was none. */
    ProtectionCount plus(String sampleIfFirst) {
        return new ProtectionCount(count + 1, sample.isPresent() ? sample : Optional.of(sampleIfFirst));
    }
}
