package io.krabka.kernel.restore;

import java.io.Serial;
import java.util.Objects;

/** A batch whose framing or header contradicts Kafka's format or the segment it sits in. */
public final class CorruptBatchException extends RestoreIntegrityException {
    @Serial
    private static final long serialVersionUID = 1L;

    /** What is wrong with the batch. */
    public enum Reason {
        /** Magic 0 or 1: a legacy message set, which the restore does not write (see {@link SegmentVerifier}). */
        LEGACY_MAGIC,
        /** A magic byte no Kafka version writes. */
        UNKNOWN_MAGIC,
        /** A length field too small to hold the magic 2 header. */
        LENGTH_BELOW_HEADER,
        /** A length field above the verifier's batch cap. */
        LENGTH_ABOVE_CAP,
        /** A negative last offset delta, or a last offset past {@code Long.MAX_VALUE}. */
        INVALID_OFFSETS,
        /** A negative record count, or more records than offsets the batch spans. */
        INVALID_RECORD_COUNT,
        /** Compression bits naming no codec. */
        UNKNOWN_COMPRESSION,
        /** The first batch starts below the segment's base offset. */
        BELOW_SEGMENT_BASE,
        /** A batch starts at or below the last offset of the batch before it. */
        OFFSETS_NOT_INCREASING,
        /** An offset too far above the segment's base offset for Kafka's 32-bit relative index entries. */
        OFFSET_OUT_OF_SEGMENT_RANGE
    }

    private final Reason reason;

    /** The batch at {@code position} of {@code key} is corrupt for {@code reason}, described by {@code detail}. */
    public CorruptBatchException(String key, long position, Reason reason, String detail) {
        super(key, position, "corrupt record batch: " + detail);
        this.reason = Objects.requireNonNull(reason, "reason");
    }

    /** What is wrong with the batch. */
    public Reason reason() {
        return reason;
    }
}
