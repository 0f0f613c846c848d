package io.krabka.archive.chain;

import io.krabka.archive.ArchiveFormatException;
import io.krabka.archive.UnsupportedFormatVersionException;
import io.krabka.archive.manifest.ChainStamp;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.RemoteLogSegmentId;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentState;
import java.util.Iterator;
import java.util.Objects;
import java.util.Optional;

/**
 * Where a partition's next manifest goes, read from the chain receipts its segments' metadata carry (the
 * original's {@code next_chain_stamp}). Segments being deleted and records in request form are ignored, as is
 * custom metadata that is no chain record; the receipt on the greatest start offset wins, ties going to the
 * greatest seq, and the chain continues after it. With no receipt the chain starts a fresh epoch at genesis.
 */
public sealed interface NextChainStamp {

    /**
     * The next stamp of a partition whose segments are {@code segments}.
     *
     * @param freshEpochId the epoch to start when no segment carries a receipt
     */
    static NextChainStamp of(Iterator<RemoteLogSegmentMetadata> segments, Uuid freshEpochId) {
        Objects.requireNonNull(freshEpochId, "freshEpochId");
        RemoteLogSegmentMetadata latest = null;
        WormChainRecord latestReceipt = null;
        while (segments.hasNext()) {
            RemoteLogSegmentMetadata segment = segments.next();
            if (segment.state() == RemoteLogSegmentState.DELETE_SEGMENT_STARTED
                    || segment.state() == RemoteLogSegmentState.DELETE_SEGMENT_FINISHED
                    || segment.customMetadata().isEmpty()) {
                continue;
            }
            byte[] bytes = segment.customMetadata().get().value();
            if (!WormChainRecord.declaresVersion(bytes)) {
                continue;
            }
            WormChainRecord record;
            try {
                record = WormChainRecord.decode(bytes);
            } catch (ArchiveFormatException e) {
                return new UnreadableReceipt(segment.remoteLogSegmentId(), e);
            }
            if (!record.isReceipt()) {
                continue;
            }
            if (latest == null
                    || segment.startOffset() > latest.startOffset()
                    || (segment.startOffset() == latest.startOffset()
                            && Long.compareUnsigned(record.seq(), latestReceipt.seq()) > 0)) {
                latest = segment;
                latestReceipt = record;
            }
        }
        if (latest == null) {
            return new FreshEpoch(ChainStamp.genesis(freshEpochId));
        }
        RemoteLogSegmentId after = latest.remoteLogSegmentId();
        Optional<ChainStamp> next =
                latestReceipt.stamp().successor(latestReceipt.head().orElseThrow());
        return next.<NextChainStamp>map(stamp -> new Continued(stamp, after)).orElseGet(() -> new Exhausted(after));
    }

    /** As {@link #of(Iterator, Uuid)}, over an iterable. */
    static NextChainStamp of(Iterable<RemoteLogSegmentMetadata> segments, Uuid freshEpochId) {
        return of(segments.iterator(), freshEpochId);
    }

    /** The stamp to write the next manifest at; empty when there is none. */
    Optional<ChainStamp> stamp();

    /**
     * The chain continues after a receipt.
     *
     * @param next  the next manifest's stamp: the receipt's epoch, its seq + 1, its head as prev_head
     * @param after the segment whose receipt it continues
     */
    record Continued(ChainStamp next, RemoteLogSegmentId after) implements NextChainStamp {
        /** Validates the parts. */
        public Continued {
            Objects.requireNonNull(next, "next");
            Objects.requireNonNull(after, "after");
        }

        @Override
        public Optional<ChainStamp> stamp() {
            return Optional.of(next);
        }
    }

    /**
     * No segment carries a receipt: the chain starts a fresh epoch, which a verifier counts as a restart unless it
     * is the archive's first.
     *
     * @param next seq 0 of the fresh epoch, at genesis
     */
    record FreshEpoch(ChainStamp next) implements NextChainStamp {
        /** Validates the parts. */
        public FreshEpoch {
            Objects.requireNonNull(next, "next");
        }

        @Override
        public Optional<ChainStamp> stamp() {
            return Optional.of(next);
        }
    }

    /**
     * The latest receipt's seq is the largest u64: its epoch can take no more manifests.
     *
     * @param after the segment with that receipt
     */
    record Exhausted(RemoteLogSegmentId after) implements NextChainStamp {
        /** Validates the parts. */
        public Exhausted {
            Objects.requireNonNull(after, "after");
        }

        @Override
        public Optional<ChainStamp> stamp() {
            return Optional.empty();
        }
    }

    /**
     * A live segment carries a chain record this cannot read: of another version
     * ({@link UnsupportedFormatVersionException}), as a newer writer would leave, or malformed. Continuing would
     * fork the chain, so there is no next stamp.
     *
     * @param segment the segment
     * @param cause   why its record cannot be read
     */
    record UnreadableReceipt(RemoteLogSegmentId segment, ArchiveFormatException cause) implements NextChainStamp {
        /** Validates the parts. */
        public UnreadableReceipt {
            Objects.requireNonNull(segment, "segment");
            Objects.requireNonNull(cause, "cause");
        }

        @Override
        public Optional<ChainStamp> stamp() {
            return Optional.empty();
        }
    }
}
