package io.krabka.kernel.log;

import io.krabka.kernel.log.checkpoint.AtomicFileWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * What interrupted operations leave in a partition directory, dealt with as Kafka's {@code LogLoader} does before
 * loading segments: files of a write to a temporary name, {@code .deleted} files whose delayed deletion a shutdown
 * cut short, the {@code .cleaned} files of an unfinished cleaning, and {@code .swap} files: those of an unfinished
 * split (above the lowest {@code .cleaned} offset) are deleted, the others complete their swap, replacing the
 * segments their offsets cover.
 */
final class LeftoverFiles {

    private static final System.Logger LOG = System.getLogger(LeftoverFiles.class.getName());

    // The KRaft metadata log's snapshots being deleted; its own loader handles them.
    private static final String SNAPSHOT_DELETE_SUFFIX = ".checkpoint.deleted";

    private LeftoverFiles() {}

    /** Cleans {@code dir} of leftovers and completes interrupted swaps. */
    static void clean(Path dir) throws IOException {
        List<Path> swapFiles = new ArrayList<>();
        List<Path> cleanedFiles = new ArrayList<>();
        long minCleanedFileOffset = Long.MAX_VALUE;
        for (Path file : sortedFiles(dir)) {
            String name = file.getFileName().toString();
            if (name.endsWith(AtomicFileWriter.TEMP_FILE_SUFFIX)
                    || (name.endsWith(LogFileUtils.DELETED_FILE_SUFFIX) && !name.endsWith(SNAPSHOT_DELETE_SUFFIX))) {
                LOG.log(System.Logger.Level.DEBUG, "Deleting stray temporary file " + file);
                Files.deleteIfExists(file);
            } else if (name.endsWith(LogFileUtils.CLEANED_FILE_SUFFIX)) {
                minCleanedFileOffset = Math.min(LogFileUtils.offsetFromFileName(name), minCleanedFileOffset);
                cleanedFiles.add(file);
            } else if (name.endsWith(LogFileUtils.SWAP_FILE_SUFFIX)) {
                swapFiles.add(file);
            }
        }
        List<Path> validSwapFiles = new ArrayList<>();
        for (Path file : swapFiles) {
            if (LogFileUtils.offsetFromFileName(file.getFileName().toString()) >= minCleanedFileOffset) {
                LOG.log(
                        System.Logger.Level.DEBUG,
                        "Deleting invalid swap file " + file + " minCleanedFileOffset: " + minCleanedFileOffset);
                Files.deleteIfExists(file);
            } else {
                validSwapFiles.add(file);
            }
        }
        for (Path file : cleanedFiles) {
            Files.deleteIfExists(file);
        }
        completeSwaps(dir, validSwapFiles);
    }

    // The segments a swap replaces are those whose files' offsets lie in [lowest swapped base, highest next offset).
    private static void completeSwaps(Path dir, List<Path> swapFiles) throws IOException {
        if (swapFiles.isEmpty()) {
            return;
        }
        long minSwapFileOffset = Long.MAX_VALUE;
        long maxSwapFileOffset = Long.MIN_VALUE;
        for (Path swap : swapFiles) {
            String name = swap.getFileName().toString();
            if (!stripSwap(name).endsWith(LogFileUtils.LOG_FILE_SUFFIX)) {
                continue;
            }
            long baseOffset = LogFileUtils.offsetFromFileName(name);
            LOG.log(
                    System.Logger.Level.INFO,
                    "Found log file " + swap + " from interrupted swap operation, which is "
                            + "recoverable from .swap files by renaming.");
            minSwapFileOffset = Math.min(baseOffset, minSwapFileOffset);
            maxSwapFileOffset = Math.max(nextOffset(swap).orElse(baseOffset), maxSwapFileOffset);
        }
        for (Path file : sortedFiles(dir)) {
            String name = file.getFileName().toString();
            if (!name.endsWith(LogFileUtils.SWAP_FILE_SUFFIX)) {
                OptionalLong offset = offsetOf(name);
                if (offset.isPresent()
                        && offset.getAsLong() >= minSwapFileOffset
                        && offset.getAsLong() < maxSwapFileOffset) {
                    LOG.log(
                            System.Logger.Level.INFO,
                            "Deleting segment files " + name + " that is compacted but has not been deleted yet.");
                    Files.deleteIfExists(file);
                }
            }
        }
        for (Path swap : swapFiles) {
            LOG.log(System.Logger.Level.INFO, "Recovering file " + swap + " by renaming from .swap files.");
            Files.move(swap, swap.resolveSibling(stripSwap(swap.getFileName().toString())));
        }
        Fsync.forceDirectory(dir);
    }

    private static String stripSwap(String name) {
        return name.endsWith(LogFileUtils.SWAP_FILE_SUFFIX)
                ? name.substring(0, name.length() - LogFileUtils.SWAP_FILE_SUFFIX.length())
                : name;
    }

    private static OptionalLong nextOffset(Path logFile) throws IOException {
        try (FileRecords records = FileRecords.open(logFile)) {
            long next = -1;
            for (FileChannelBatch batch : records.batches()) {
                next = batch.nextOffset();
            }
            return next < 0 ? OptionalLong.empty() : OptionalLong.of(next);
        }
    }

    private static OptionalLong offsetOf(String name) {
        try {
            return OptionalLong.of(LogFileUtils.offsetFromFileName(name));
        } catch (IllegalArgumentException e) {
            return OptionalLong.empty();
        }
    }

    /** Whether the file is a segment's offset, time or transaction index. */
    static boolean isIndexFile(String name) {
        return name.endsWith(LogFileUtils.INDEX_FILE_SUFFIX)
                || name.endsWith(LogFileUtils.TIME_INDEX_FILE_SUFFIX)
                || name.endsWith(LogFileUtils.TXN_INDEX_FILE_SUFFIX);
    }

    /** The regular files of {@code dir}, by name. */
    static List<Path> sortedFiles(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(Files::isRegularFile).sorted().toList();
        }
    }
}
