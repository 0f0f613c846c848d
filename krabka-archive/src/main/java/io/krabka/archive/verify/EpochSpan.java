package io.krabka.archive.verify;

import io.krabka.spi.common.Uuid;
import java.util.Objects;

/**
 * One chain epoch of a partition, as far as the walk verified it.
 *
 * @param epochId     the epoch
 * @param firstSeq    its first manifest's seq (0), unsigned
 * @param lastSeq     its last verified manifest's seq, unsigned
 * @param startOffset the first offset its manifests cover
 * @param endOffset   the last offset its manifests cover, inclusive
 */
public record EpochSpan(Uuid epochId, long firstSeq, long lastSeq, long startOffset, long endOffset) {

    /** Validates the parts. */
    public EpochSpan {
        Objects.requireNonNull(epochId, "epochId");
    }
}
