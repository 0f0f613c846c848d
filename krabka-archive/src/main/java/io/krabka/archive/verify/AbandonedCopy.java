package io.krabka.archive.verify;

import io.krabka.spi.common.Uuid;
import java.util.List;
import java.util.Objects;

/**
 * A copy of a segment that its writer abandoned, by a record signed with a trusted key: its objects are neither
 * orphans nor part of the chain.
 *
 * @param recordKey     the key of the abandonment record
 * @param segmentId     the abandoned copy's segment id
 * @param startOffset   the segment's first offset
 * @param endOffset     the segment's last offset, inclusive
 * @param abandonedAtMs when the writer gave it up
 * @param objects       the keys of the copy's objects in the store, the record's own and any manifest included
 */
public record AbandonedCopy(
        String recordKey, Uuid segmentId, long startOffset, long endOffset, long abandonedAtMs, List<String> objects) {

    /** Validates the parts and freezes the keys. */
    public AbandonedCopy {
        Objects.requireNonNull(recordKey, "recordKey");
        Objects.requireNonNull(segmentId, "segmentId");
        objects = List.copyOf(objects);
    }
}
