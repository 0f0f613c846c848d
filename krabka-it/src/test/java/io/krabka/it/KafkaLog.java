package io.krabka.it;

import io.krabka.spi.common.TopicPartition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A log directory Apache Kafka wrote (its only {@code log.dirs} entry), with what kafka-clients was told it holds.
 * Tests must not change it: other test classes share it. {@link #copyTo} gives a copy to open, recover or break.
 *
 * @param logDir     the log directory
 * @param brokerLogs the broker's own logs ({@code server.log}, {@code stdout.log}), for failure messages
 * @param shutdown   how the broker stopped
 * @param produced   the workload's partitions, each with the log Kafka acknowledged
 * @param topics     the workload's topics, with the configs they were created with
 */
record KafkaLog(
        Path logDir,
        Path brokerLogs,
        Shutdown shutdown,
        Map<TopicPartition, ProducedLog> produced,
        List<TopicSpec> topics) {
    static final String META_PROPERTIES = "meta.properties";
    static final String RECOVERY_POINT_CHECKPOINT = "recovery-point-offset-checkpoint";
    static final String LOG_START_OFFSET_CHECKPOINT = "log-start-offset-checkpoint";
    static final String REPLICATION_OFFSET_CHECKPOINT = "replication-offset-checkpoint";
    static final String CLEANER_OFFSET_CHECKPOINT = "cleaner-offset-checkpoint";
    static final String CLEAN_SHUTDOWN = ".kafka_cleanshutdown";

    /** How the broker stopped. */
    enum Shutdown {
        /** SIGTERM: Kafka closed every log, trimmed the indexes, wrote its checkpoints and {@value #CLEAN_SHUTDOWN}. */
        CLEAN,
        /**
         * SIGKILL while records were in flight: the active segments' indexes are left preallocated (or not yet
         * created, see {@link PartitionFiles.SegmentFiles}), there is no {@value #CLEAN_SHUTDOWN}, the checkpoints
         * are those of the last periodic write (or empty).
         */
        KILLED
    }

    /** Copies the map and the list. */
    KafkaLog {
        produced = Collections.unmodifiableMap(new LinkedHashMap<>(produced));
        topics = List.copyOf(topics);
    }

    /** A file of the log directory itself ({@value #META_PROPERTIES}, a checkpoint, ...). */
    Path file(String name) {
        return logDir.resolve(name);
    }

    /** The directory of a partition's log. */
    Path partitionDir(TopicPartition partition) {
        return logDir.resolve(partition.toString());
    }

    /** The files of a partition's log. */
    PartitionFiles partition(TopicPartition partition) throws IOException {
        return PartitionFiles.scan(partitionDir(partition));
    }

    /**
     * Copies the log directory to {@code target} (which must not exist), file by file and byte for byte, for a
     * test that opens, recovers or breaks it. A killed log's preallocated indexes are copied whole (10 MiB each).
     *
     * @return the same log at the copy's location
     */
    KafkaLog copyTo(Path target) throws IOException {
        Files.createDirectories(target.getParent());
        try (Stream<Path> files = Files.walk(logDir)) {
            for (Path source : files.sorted().toList()) {
                Files.copy(source, target.resolve(logDir.relativize(source).toString()));
            }
        }
        return new KafkaLog(target, brokerLogs, shutdown, produced, topics);
    }
}
