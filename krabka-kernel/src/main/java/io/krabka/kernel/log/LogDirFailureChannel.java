package io.krabka.kernel.log;

import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * The log directories an I/O error took offline, Kafka's {@code LogDirFailureChannel}: whoever meets an error that
 * leaves a directory's files in a state not known ({@link DiskFaults#takesLogDirOffline}) reports the directory; the
 * first report of each is logged and queued for the broker's handler, which takes the directory's partitions out of
 * service. A directory stays offline until the broker restarts.
 *
 * <p>Thread-safe.
 */
public final class LogDirFailureChannel {
    private static final System.Logger LOG = System.getLogger(LogDirFailureChannel.class.getName());

    private final Set<Path> offlineLogDirs = ConcurrentHashMap.newKeySet();
    private final BlockingQueue<Path> offlineLogDirQueue = new LinkedBlockingQueue<>();

    /** Whether {@code logDir} was reported offline. */
    public boolean hasOfflineLogDir(Path logDir) {
        return offlineLogDirs.contains(normalize(logDir));
    }

    /** The directories reported offline. */
    public Set<Path> offlineLogDirs() {
        return Set.copyOf(offlineLogDirs);
    }

    /**
     * Reports {@code logDir} offline because of {@code cause}: logged at ERROR with {@code message} and queued for
     * the handler the first time; nothing more after that.
     */
    public void maybeAddOfflineLogDir(Path logDir, String message, Throwable cause) {
        Path dir = normalize(logDir);
        if (offlineLogDirs.add(dir)) {
            LOG.log(System.Logger.Level.ERROR, message + "; log directory " + dir + " goes offline", cause);
            offlineLogDirQueue.add(dir);
        }
    }

    /** Waits for the next directory reported offline, for the handler. */
    public Path takeNextOfflineLogDir() throws InterruptedException {
        return offlineLogDirQueue.take();
    }

    private static Path normalize(Path logDir) {
        return logDir.toAbsolutePath().normalize();
    }
}
