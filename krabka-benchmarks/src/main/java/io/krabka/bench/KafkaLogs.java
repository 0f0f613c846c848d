package io.krabka.bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.server.util.KafkaScheduler;
import org.apache.kafka.storage.internals.log.LogConfig;
import org.apache.kafka.storage.internals.log.LogDirFailureChannel;
import org.apache.kafka.storage.internals.log.LogOffsetsListener;
import org.apache.kafka.storage.internals.log.ProducerStateManagerConfig;
import org.apache.kafka.storage.internals.log.UnifiedLog;
import org.apache.kafka.storage.log.metrics.BrokerTopicStats;

/**
 * Opens Apache Kafka 4.4.0's own partition logs ({@code org.apache.kafka.storage.internals.log.UnifiedLog}) as its
 * log manager does, with Kafka's defaults for every topic and broker setting, on a scheduler thread of their own.
 */
public final class KafkaLogs {
    /** Kafka's default {@code producer.id.expiration.ms}. */
    private static final int PRODUCER_ID_EXPIRATION_MS = 86_400_000;

    private final KafkaScheduler scheduler = new KafkaScheduler(1, true, "kafka-bench-scheduler-");
    private final BrokerTopicStats stats = new BrokerTopicStats();

    /** Logs on a scheduler thread of their own. */
    public KafkaLogs() {
        scheduler.startup();
    }

    /** Opens, or creates, the log of the partition directory {@code dir}, as {@link KrabkaLogs#open} does. */
    UnifiedLog open(Path dir, boolean lastShutdownClean) throws IOException {
        return open(dir, lastShutdownClean, new ConcurrentHashMap<>());
    }

    /**
     * {@link #open(Path, boolean)}, with the map in which Kafka's recovery keeps, per loading thread, the number of
     * segments it has still to recover (as its log manager passes it, for its metrics).
     */
    UnifiedLog open(Path dir, boolean lastShutdownClean, ConcurrentMap<String, Integer> remainingSegments)
            throws IOException {
        return open(dir, new LogConfig(Map.of()), lastShutdownClean, remainingSegments);
    }

    /** {@link #open(Path, boolean)} with these topic settings. */
    public UnifiedLog open(Path dir, LogConfig config, boolean lastShutdownClean) throws IOException {
        return open(dir, config, lastShutdownClean, new ConcurrentHashMap<>());
    }

    private UnifiedLog open(
            Path dir, LogConfig config, boolean lastShutdownClean, ConcurrentMap<String, Integer> remainingSegments)
            throws IOException {
        return UnifiedLog.create(
                dir.toFile(),
                config,
                0L,
                0L,
                scheduler,
                stats,
                Time.SYSTEM,
                KrabkaLogs.MAX_TRANSACTION_TIMEOUT_MS,
                new ProducerStateManagerConfig(PRODUCER_ID_EXPIRATION_MS, false),
                KrabkaLogs.PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS,
                new LogDirFailureChannel(1),
                lastShutdownClean,
                Optional.empty(),
                remainingSegments,
                false,
                LogOffsetsListener.NO_OP_OFFSETS_LISTENER);
    }

    /** Waits for the running background tasks (the flush of a rolled segment) and drops the others. */
    public void shutdown() throws InterruptedException {
        scheduler.shutdown();
        stats.close();
    }
}
