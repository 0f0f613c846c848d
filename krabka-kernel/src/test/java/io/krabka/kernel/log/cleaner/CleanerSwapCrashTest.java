package io.krabka.kernel.log.cleaner;

import static io.krabka.kernel.log.cleaner.CleanerLogs.append;
import static io.krabka.kernel.log.cleaner.CleanerLogs.compacted;
import static io.krabka.kernel.log.cleaner.CleanerLogs.read;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.log.LogFileUtils;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.log.cleaner.CleanerLogs.Entry;
import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.record.Compression;
import io.krabka.kernel.record.CompressionType;
import io.krabka.kernel.record.ControlRecordType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A crash at every step of swapping a cleaned segment in: the files are left as the swap left them at that step,
 * and the log is opened again as after a crash (recovered from the segments). Each time it loads, with no file of
 * the swap left over, and holds either everything it held before the cleaning or exactly what the cleaning kept:
 * nothing is lost, nothing doubled. The state with the cleaned files written comes from the real swap stopped at
 * its first rename; each later step is one more rename of the swap's own sequence, two of which are checked
 * against the real swap stopped there too.
 */
class CleanerSwapCrashTest {

    private static final LogConfig CONFIG = compacted();

    @TempDir
    Path root;

    private CleanerLogs logs;
    private List<Entry> before;
    private List<Entry> after;

    @BeforeEach
    void writeTheLog() throws IOException {
        logs = new CleanerLogs(root.resolve("template"));
        UnifiedLog log = logs.open("topic-0", CONFIG);
        fill(logs, log);
        before = read(log);
        log.close();
        CleanerLogs copy = new CleanerLogs(root.resolve("cleaned"));
        copyDir(logs.logDir, copy.logDir);
        UnifiedLog cleanedLog = copy.open("topic-0", CONFIG);
        copy.clean(copy.cleaner(1 << 20), cleanedLog, 0);
        after = read(cleanedLog);
        cleanedLog.close();
        assertNotEquals(before, after, "the cleaning drops records");
    }

    // Three segments of overwritten keys, an aborted transaction (so every file of a segment exists), an active one.
    private static void fill(CleanerLogs logs, UnifiedLog log) throws IOException {
        append(log, logs.keyed("k1", "a", "k2", "b", "k3", "c"));
        append(log, logs.producerBatch(Compression.NONE, 7, (short) 0, 0, true, "k1", "aborted"));
        logs.appendMarker(log, 7, (short) 0, ControlRecordType.ABORT);
        log.roll();
        append(log, logs.keyed(Compression.of(CompressionType.LZ4), "k2", "d", "k4", "e"));
        log.roll();
        append(log, logs.keyed("k1", "f", "k4", null));
        log.roll();
        append(log, logs.keyed("k5", "active"));
    }

    @Test
    void aCrashAtAnyStepOfTheSwapLosesNothing() throws IOException {
        Path written = stopTheSwapAt(LogFileUtils.SWAP_FILE_SUFFIX, ".log");
        List<String[]> renames = swapRenames(written);
        // The new segment's four files twice; the old ones' four, three where they had no aborted transaction.
        assertEquals(4 + 4 + 3 + 3 + 4, renames.size());
        for (int step = 0; step <= renames.size(); step++) {
            Path crashed = root.resolve("crash-" + step);
            copyDir(written, crashed);
            for (String[] rename : renames.subList(0, step)) {
                Files.move(crashed.resolve(rename[0]), crashed.resolve(rename[1]));
            }
            List<Entry> loaded = reopen(crashed);
            // Once every file of the new segment is named .swap, the load completes the swap.
            assertEquals(step < 4 ? before : after, loaded, "crashed after " + step + " renames of the swap");
            assertNoSwapLeftovers(crashed.resolve("topic-0"));
        }
    }

    @Test
    void theRealSwapStoppedAtAnOldSegmentsRenameLoadsTheCleanedLog() throws IOException {
        Path stopped = stopTheSwapAt(LogFileUtils.DELETED_FILE_SUFFIX, ".timeindex");
        assertTrue(hasFileEndingWith(stopped.resolve("topic-0"), ".log.swap"));
        assertEquals(after, reopen(stopped));
        assertNoSwapLeftovers(stopped.resolve("topic-0"));
    }

    @Test
    void theRealSwapStoppedAtTheNewSegmentsIndexLoadsTheLogAsItWas() throws IOException {
        Path stopped = stopTheSwapAt(LogFileUtils.SWAP_FILE_SUFFIX, ".index");
        assertTrue(hasFileEndingWith(stopped.resolve("topic-0"), ".log.swap"));
        assertTrue(hasFileEndingWith(stopped.resolve("topic-0"), ".index.cleaned"));
        assertEquals(before, reopen(stopped));
        assertNoSwapLeftovers(stopped.resolve("topic-0"));
    }

    /**
     * Cleans a copy of the log with the rename of the first segment's {@code type} file to {@code suffix} blocked by
     * a directory of that name, as a crash there would stop it; returns the log directory as the swap left it.
     */
    private Path stopTheSwapAt(String suffix, String type) throws IOException {
        CleanerLogs stopped = new CleanerLogs(root.resolve("stopped-" + suffix + type));
        copyDir(logs.logDir, stopped.logDir);
        Path blocker =
                stopped.logDir.resolve("topic-0").resolve(LogFileUtils.filenamePrefixFromOffset(0) + type + suffix);
        Files.createDirectories(blocker.resolve("in-the-way"));
        UnifiedLog log = stopped.open("topic-0", CONFIG);
        assertThrows(IOException.class, () -> stopped.clean(stopped.cleaner(1 << 20), log, 0));
        log.closeHandlers();
        Files.delete(blocker.resolve("in-the-way"));
        Files.delete(blocker);
        return stopped.logDir;
    }

    /**
     * The renames a swap still has to do, in {@code LocalLog.replaceSegments}' order, from the state with the
     * cleaned files written: the new segment's files to .swap, each old segment's to .deleted, the new segment's
     * from .swap to their names.
     */
    private static List<String[]> swapRenames(Path logDir) throws IOException {
        Path dir = logDir.resolve("topic-0");
        List<String[]> renames = new ArrayList<>();
        List<String> types = List.of(".log", ".index", ".timeindex", ".txnindex");
        String cleaned = LogFileUtils.filenamePrefixFromOffset(0);
        for (String type : types) {
            renames.add(new String[] {
                "topic-0/" + cleaned + type + LogFileUtils.CLEANED_FILE_SUFFIX,
                "topic-0/" + cleaned + type + LogFileUtils.SWAP_FILE_SUFFIX
            });
        }
        try (Stream<Path> files = Files.list(dir)) {
            List<String> oldSegments = files.map(f -> f.getFileName().toString())
                    .filter(name -> name.endsWith(LogFileUtils.LOG_FILE_SUFFIX))
                    .map(name -> name.substring(0, name.indexOf('.')))
                    .sorted()
                    .toList();
            // The active segment is not replaced.
            for (String segment : oldSegments.subList(0, oldSegments.size() - 1)) {
                for (String type : types) {
                    if (Files.exists(dir.resolve(segment + type))) {
                        renames.add(new String[] {
                            "topic-0/" + segment + type, "topic-0/" + segment + type + LogFileUtils.DELETED_FILE_SUFFIX
                        });
                    }
                }
            }
        }
        for (String type : types) {
            renames.add(new String[] {
                "topic-0/" + cleaned + type + LogFileUtils.SWAP_FILE_SUFFIX, "topic-0/" + cleaned + type
            });
        }
        return renames;
    }

    private List<Entry> reopen(Path logDir) throws IOException {
        CleanerLogs reopened = new CleanerLogs(logDir);
        UnifiedLog log = reopened.open("topic-0", CONFIG, false);
        try {
            return read(log);
        } finally {
            log.close();
        }
    }

    private static void assertNoSwapLeftovers(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            List<String> leftovers = files.map(f -> f.getFileName().toString())
                    .filter(name -> name.endsWith(LogFileUtils.CLEANED_FILE_SUFFIX)
                            || name.endsWith(LogFileUtils.SWAP_FILE_SUFFIX)
                            || name.endsWith(LogFileUtils.DELETED_FILE_SUFFIX))
                    .toList();
            assertEquals(List.of(), leftovers);
        }
    }

    private static boolean hasFileEndingWith(Path dir, String suffix) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.anyMatch(f -> f.getFileName().toString().endsWith(suffix));
        }
    }

    private static void copyDir(Path source, Path target) throws IOException {
        try (Stream<Path> files = Files.walk(source)) {
            for (Path file : files.sorted().toList()) {
                Files.copy(file, target.resolve(source.relativize(file).toString()));
            }
        }
    }
}
