package io.krabka.kernel.log;

import java.util.OptionalInt;

/**
 * A record found by timestamp, or the largest timestamp of a range: Kafka's {@code FileRecords.TimestampAndOffset}.
 *
 * @param timestamp   the record's timestamp, or -1 for none
 * @param offset      its offset (for a largest timestamp, the last offset of the batch holding it), or -1 for none
 * @param leaderEpoch the partition leader epoch of its batch, if it has one
 */
public record TimestampAndOffset(long timestamp, long offset, OptionalInt leaderEpoch) {

    /** Checks the epoch is there. */
    public TimestampAndOffset {
        if (leaderEpoch == null) {
            throw new IllegalArgumentException("leaderEpoch is null; use OptionalInt.empty()");
        }
    }
}
