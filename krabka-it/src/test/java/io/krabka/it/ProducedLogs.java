package io.krabka.it;

import io.krabka.it.LogEntry.Data;
import io.krabka.it.LogEntry.Marker;
import io.krabka.spi.common.TopicPartition;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.record.internal.ControlRecordType;

/**
 * The logs a workload builds, partition by partition, from Kafka's acknowledgements: each acknowledged record must
 * have the partition's next offset, so that the phases of a workload cannot overlap unnoticed.
 */
final class ProducedLogs {
    private final Map<TopicPartition, List<LogEntry>> logs = new LinkedHashMap<>();
    private final Set<TopicPartition> incomplete = new HashSet<>();

    /** Adds empty logs for partitions, so that a partition the workload leaves empty is expected empty. */
    void declare(Collection<TopicPartition> partitions) {
        partitions.forEach(this::log);
    }

    /**
     * Adds a record Kafka acknowledged at {@code offset}, with the timestamp it acknowledged (the log append time
     * where the topic uses it).
     *
     * @throws IllegalStateException if the offset is not the partition's next one
     */
    void acknowledged(TopicPartition partition, long offset, long timestamp, Data record) {
        List<LogEntry> log = log(partition);
        if (offset != log.size()) {
            throw new IllegalStateException(partition + ": Kafka acknowledged a record at offset " + offset
                    + " where the workload expects the log's next offset, " + log.size());
        }
        log.add(new Data(timestamp, record.key(), record.value(), record.headers(), record.transactional()));
    }

    /** Adds a transaction marker, which takes the partition's next offset. */
    void marker(TopicPartition partition, ControlRecordType type) {
        log(partition).add(new Marker(type));
    }

    /** Marks a partition whose log may hold more than what was acknowledged (the broker was killed). */
    void mayHoldMore(TopicPartition partition) {
        log(partition);
        incomplete.add(partition);
    }

    /** The partition's next offset, as far as the workload knows. */
    long endOffset(TopicPartition partition) {
        return log(partition).size();
    }

    /** The logs, by partition, in the order the partitions were first written. */
    Map<TopicPartition, ProducedLog> result() {
        Map<TopicPartition, ProducedLog> result = new LinkedHashMap<>();
        logs.forEach((p, log) -> result.put(p, new ProducedLog(log, !incomplete.contains(p))));
        return result;
    }

    private List<LogEntry> log(TopicPartition partition) {
        return logs.computeIfAbsent(partition, p -> new ArrayList<>());
    }
}
