package io.krabka.it;

import java.util.List;

/**
 * What kafka-clients was told a partition's log holds: every entry from offset 0, in offset order (the entry at
 * index {@code i} has offset {@code i}), records with the offset and timestamp Kafka acknowledged and transaction
 * markers where the workload waited for them.
 *
 * @param entries  the log's entries from offset 0
 * @param complete true if the log holds exactly these; false if the broker was killed while records were in
 *                 flight to the partition, so that the log holds these and may hold more after them
 */
record ProducedLog(List<LogEntry> entries, boolean complete) {

    /** Copies the entries. */
    ProducedLog {
        entries = List.copyOf(entries);
    }
}
