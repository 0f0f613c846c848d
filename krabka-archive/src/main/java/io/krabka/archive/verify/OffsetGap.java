package io.krabka.archive.verify;

/**
 * Offsets no manifest covers between two consecutive manifests of a partition. Informative: the chain proves the
 * manifests follow each other, not that their segments abut, and a gap is a segment never copied into the
 * archive (tiering enabled late, a copy skipped).
 *
 * @param firstMissing the first offset not covered
 * @param lastMissing  the last offset not covered, inclusive
 */
public record OffsetGap(long firstMissing, long lastMissing) {

    /** Validates the range. */
    public OffsetGap {
        if (lastMissing < firstMissing) {
            throw new IllegalArgumentException("an offset gap [" + firstMissing + ", " + lastMissing + "] is empty");
        }
    }
}
