package io.krabka.archive.manifest;

import io.krabka.spi.common.Uuid;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a manifest sits in its partition's hash chain.
 *
 * @param epochId  the chain epoch: a fresh id whenever the writer cannot find where the chain left off
 * @param seq      the manifest's number in its epoch, from 0: an unsigned 64-bit integer held in a long's bits
 * @param prevHead the head of the manifest before it in the epoch, {@link ChainHead#GENESIS} for seq 0
 */
public record ChainStamp(Uuid epochId, long seq, ChainHead prevHead) {

    /** Validates the parts. */
    public ChainStamp {
        Objects.requireNonNull(epochId, "epochId");
        Objects.requireNonNull(prevHead, "prevHead");
    }

    /** The first stamp of a new epoch: seq 0 at genesis. */
    public static ChainStamp genesis(Uuid epochId) {
        return new ChainStamp(epochId, 0, ChainHead.GENESIS);
    }

    /** The stamp after this one, whose manifest had the given head; empty when seq is the largest u64. */
    public Optional<ChainStamp> successor(ChainHead head) {
        return seq == -1L ? Optional.empty() : Optional.of(new ChainStamp(epochId, seq + 1, head));
    }

    /** The sequence number in decimal, as an unsigned 64-bit integer. */
    public String seqText() {
        return Long.toUnsignedString(seq);
    }
}
