package io.krabka.kernel.log;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * The last batch of an active producer, which the cleaner keeps so that compaction does not forget the producer.
 * Kafka's name.
 *
 * @param lastDataOffset the offset of the producer's last data record, if it still has one
 * @param producerEpoch  the producer's epoch
 */
public record LastRecord(OptionalLong lastDataOffset, short producerEpoch) {

    /** Requires the offset. */
    public LastRecord {
        Objects.requireNonNull(lastDataOffset, "lastDataOffset");
    }
}
