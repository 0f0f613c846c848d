package io.krabka.kernel.restore;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * The archive's claims about one segment's {@code .log} object, which the verify stage checks against its bytes.
 *
 * @param key          the object key, named in every error
 * @param declaredSize the size the archive or its metadata declares, when it declares one
 * @param baseOffset   the segment's start offset, from its key: no batch may start below it
 */
public record SegmentObject(String key, OptionalLong declaredSize, long baseOffset) {

    /** Validates the claims. */
    public SegmentObject {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(declaredSize, "declaredSize");
        if (key.isBlank()) {
            throw new IllegalArgumentException("the object key is blank");
        }
        if (declaredSize.isPresent() && declaredSize.getAsLong() < 0) {
            throw new IllegalArgumentException(key + ": negative declared size " + declaredSize.getAsLong());
        }
        if (baseOffset < 0) {
            throw new IllegalArgumentException(key + ": negative base offset " + baseOffset);
        }
    }
}
