package io.krabka.bench;

import io.krabka.kernel.log.ProducerStateManagerConfig;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.scheduler.KafkaScheduler;
import java.io.IOException;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.Optional;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Opens Krabka's partition logs as its log manager does, with Kafka's defaults for every topic and broker setting
 * (so a segment rolls at 1 GiB and no append is flushed), on a scheduler thread of their own.
 */
public final class KrabkaLogs {
    /** Kafka's default {@code transaction.max.timeout.ms}. */
    static final int MAX_TRANSACTION_TIMEOUT_MS = 900_000;
    /** Kafka's default {@code producer.id.expiration.check.interval.ms}. */
    static final int PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS = 600_000;

    /**
     * Krabka's log says what it does through {@link System.Logger}, to the console by default; in a benchmark's
     * output that is noise (opening a killed log warns that the active segment's preallocated index looks
     * corrupt, before recovery rebuilds it), and the benchmarks check what matters themselves. Held here: the
     * logging keeps only a weak reference.
     */
    @SuppressWarnings("UnusedVariable") // held, never read: see above
    private static final Logger QUIET = quiet();

    private final KafkaScheduler scheduler = new KafkaScheduler(1, "krabka-bench-scheduler-");

    /** Logs on a scheduler thread of their own. */
    public KrabkaLogs() {}

    /**
     * Opens, or creates, the log of the partition directory {@code dir}, from log start offset and recovery point
     * 0: after an unclean shutdown, every segment is recovered.
     */
    UnifiedLog open(Path dir, boolean lastShutdownClean) throws IOException {
        return open(dir, LogConfig.defaults(), lastShutdownClean);
    }

    /** {@link #open(Path, boolean)} with these topic settings. */
    public UnifiedLog open(Path dir, LogConfig config, boolean lastShutdownClean) throws IOException {
        return UnifiedLog.create(
                dir,
                config,
                0,
                0,
                scheduler,
                InstantSource.system(),
                MAX_TRANSACTION_TIMEOUT_MS,
                ProducerStateManagerConfig.defaults(),
                PRODUCER_ID_EXPIRATION_CHECK_INTERVAL_MS,
                lastShutdownClean,
                Optional.empty());
    }

    private static Logger quiet() {
        Logger logger = Logger.getLogger("io.krabka.kernel");
        logger.setLevel(Level.SEVERE);
        return logger;
    }

    /** Waits for the running background tasks (the flush of a rolled segment) and drops the others. */
    public void shutdown() throws InterruptedException {
        scheduler.shutdown();
    }
}
