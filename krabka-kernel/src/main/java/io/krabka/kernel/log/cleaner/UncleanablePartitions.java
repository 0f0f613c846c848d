package io.krabka.kernel.log.cleaner;

import io.krabka.kernel.log.UnifiedLog;
import io.krabka.spi.common.TopicPartition;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;

/**
 * The partitions taken out of cleaning after an unexpected failure, by log directory, as Kafka's
 * {@code LogCleanerManager} keeps them: they stay out until the broker no longer has them (a restart or a move).
 *
 * <p>Not thread-safe: the {@link LogCleanerManager}'s lock guards it.
 */
final class UncleanablePartitions {

    private final Map<Path, Set<TopicPartition>> byDir = new HashMap<>();

    void mark(Path logDir, TopicPartition topicPartition) {
        byDir.computeIfAbsent(logDir, dir -> new HashSet<>()).add(topicPartition);
    }

    boolean contains(UnifiedLog log) {
        return byDir.getOrDefault(log.parentDir(), Set.of()).contains(log.topicPartition());
    }

    /** The partitions of {@code logDir}, a copy. */
    Set<TopicPartition> of(Path logDir) {
        return Set.copyOf(byDir.getOrDefault(logDir, Set.of()));
    }

    /** Forgets the partitions not in {@code live}. */
    void retainAll(Set<TopicPartition> live) {
        byDir.values().forEach(partitions -> partitions.retainAll(live));
        byDir.values().removeIf(Set::isEmpty);
    }
}
