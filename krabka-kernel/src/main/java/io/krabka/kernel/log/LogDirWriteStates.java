package io.krabka.kernel.log;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Which log directories take writes, as the appends into them found: one WARN line when a directory stops taking
 * them (a full disk), another when it takes them again, however many writes fail in between. Nothing is remembered
 * as failed for good: the next write is always tried.
 */
public final class LogDirWriteStates {
    private static final System.Logger LOG = System.getLogger(LogDirWriteStates.class.getName());

    private final String writer;
    private final Set<Path> refusing = ConcurrentHashMap.newKeySet();

    /** @param writer what writes, for the log lines: {@code "partitions"}, {@code "the metadata log"} */
    public LogDirWriteStates(String writer) {
        this.writer = writer;
    }

    /** A write of {@link #writer} into {@code logDir} failed with {@code cause}. */
    public void failed(Path logDir, Throwable cause) {
        if (refusing.add(logDir)) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "Log directory " + logDir + " takes no writes of " + writer + " ("
                            + cause + "; " + usableBytes(logDir)
                            + " bytes usable); each is answered KAFKA_STORAGE_ERROR and "
                            + "writes go on by themselves once there is room");
        }
    }

    /** A write of {@link #writer} into {@code logDir} succeeded. */
    public void succeeded(Path logDir) {
        if (!refusing.isEmpty() && refusing.remove(logDir)) {
            LOG.log(System.Logger.Level.WARNING, "Log directory " + logDir + " takes writes of " + writer + " again");
        }
    }

    /** Whether the last write into {@code logDir} failed. */
    public boolean refusing(Path logDir) {
        return refusing.contains(logDir);
    }

    /** The bytes the file system of {@code dir} has left for this process; -1 if it cannot be asked. */
    public static long usableBytes(Path dir) {
        try {
            return Files.getFileStore(dir).getUsableSpace();
        } catch (IOException e) {
            return -1;
        }
    }
}
