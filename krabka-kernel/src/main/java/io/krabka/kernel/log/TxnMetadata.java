package io.krabka.kernel.log;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * A transaction on a partition: open until its marker is written, then completed until the high watermark
 * passes the marker. Kafka's name.
 *
 * @param producerId  the transaction's producer
 * @param firstOffset the offset of its first batch, with that batch's position when known
 * @param lastOffset  the offset of its marker, once written
 */
public record TxnMetadata(long producerId, LogOffsetMetadata firstOffset, OptionalLong lastOffset) {

    /** Validates the offsets. */
    public TxnMetadata {
        Objects.requireNonNull(firstOffset, "firstOffset");
        Objects.requireNonNull(lastOffset, "lastOffset");
        if (lastOffset.isPresent() && lastOffset.getAsLong() < firstOffset.messageOffset()) {
            throw new IllegalArgumentException("last offset " + lastOffset.getAsLong() + " is below the first offset "
                    + firstOffset.messageOffset());
        }
    }

    /** An open transaction. */
    public TxnMetadata(long producerId, LogOffsetMetadata firstOffset) {
        this(producerId, firstOffset, OptionalLong.empty());
    }

    /** An open transaction whose first batch's position is not known. */
    public TxnMetadata(long producerId, long firstOffset) {
        this(producerId, new LogOffsetMetadata(firstOffset));
    }

    /** This transaction, completed by the marker at {@code lastOffset}. */
    TxnMetadata completedAt(long lastOffset) {
        return new TxnMetadata(producerId, firstOffset, OptionalLong.of(lastOffset));
    }
}
