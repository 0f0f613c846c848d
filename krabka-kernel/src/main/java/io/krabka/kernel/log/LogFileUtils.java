package io.krabka.kernel.log;

import java.nio.file.Path;

/** Kafka's file names for a segment's files, as in its {@code LogFileUtils}. */
public final class LogFileUtils {

    /** A segment's records. */
    public static final String LOG_FILE_SUFFIX = ".log";

    /** The offset index. */
    public static final String INDEX_FILE_SUFFIX = ".index";

    /** The time index. */
    public static final String TIME_INDEX_FILE_SUFFIX = ".timeindex";

    /** The transaction index. */
    public static final String TXN_INDEX_FILE_SUFFIX = ".txnindex";

    /** A producer state snapshot. */
    public static final String PRODUCER_SNAPSHOT_FILE_SUFFIX = ".snapshot";

    /** Appended to a file that is scheduled for deletion. */
    public static final String DELETED_FILE_SUFFIX = ".deleted";

    /** Appended to the files of a segment the cleaner is writing. */
    public static final String CLEANED_FILE_SUFFIX = ".cleaned";

    /** Appended to the files of a segment that is about to replace others. */
    public static final String SWAP_FILE_SUFFIX = ".swap";

    /** Ends the name a partition directory is renamed to when its log is deleted. */
    public static final String DELETE_DIR_SUFFIX = "-delete";

    /** Ends the name of the directory a partition's log is being moved to. */
    public static final String FUTURE_DIR_SUFFIX = "-future";

    /** Ends the name of a partition directory that no longer belongs to the broker. */
    public static final String STRAY_DIR_SUFFIX = "-stray";

    private static final int OFFSET_DIGITS = 20;

    private LogFileUtils() {}

    /** The name of a file for {@code offset} without its suffix: the offset in 20 digits, zero-padded. */
    public static String filenamePrefixFromOffset(long offset) {
        if (offset < 0) {
            throw new IllegalArgumentException("negative offset " + offset);
        }
        String digits = Long.toString(offset);
        return "0".repeat(OFFSET_DIGITS - digits.length()) + digits;
    }

    /**
     * The offset a file name starts with, up to its first dot.
     *
     * @throws IllegalArgumentException if the name does not start with decimal digits and a dot
     */
    public static long offsetFromFileName(String fileName) {
        int dot = fileName.indexOf('.');
        if (dot <= 0
                || dot > OFFSET_DIGITS
                || !fileName.substring(0, dot).chars().allMatch(c -> c >= '0' && c <= '9')) {
            throw new IllegalArgumentException("not a file name that starts with an offset: " + fileName);
        }
        try {
            return Long.parseLong(fileName, 0, dot, 10);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("offset out of range in file name " + fileName, e);
        }
    }

    /** The records file of the segment at {@code offset} in {@code dir}, its name ending with {@code suffix}. */
    public static Path logFile(Path dir, long offset, String suffix) {
        return segmentFile(dir, offset, LOG_FILE_SUFFIX, suffix);
    }

    /** The offset index file of the segment at {@code offset} in {@code dir}, its name ending with {@code suffix}. */
    public static Path offsetIndexFile(Path dir, long offset, String suffix) {
        return segmentFile(dir, offset, INDEX_FILE_SUFFIX, suffix);
    }

    /** The time index file of the segment at {@code offset} in {@code dir}, its name ending with {@code suffix}. */
    public static Path timeIndexFile(Path dir, long offset, String suffix) {
        return segmentFile(dir, offset, TIME_INDEX_FILE_SUFFIX, suffix);
    }

    /**
     * The transaction index file of the segment at {@code offset} in {@code dir}, its name ending with
     * {@code suffix}.
     */
    public static Path transactionIndexFile(Path dir, long offset, String suffix) {
        return segmentFile(dir, offset, TXN_INDEX_FILE_SUFFIX, suffix);
    }

    private static Path segmentFile(Path dir, long offset, String type, String suffix) {
        return dir.resolve(filenamePrefixFromOffset(offset) + type + suffix);
    }

    /**
     * {@code path} with its name's {@code oldSuffix} replaced by {@code newSuffix}, as Kafka's
     * {@code Utils.replaceSuffix}.
     *
     * @throws IllegalArgumentException if the name does not end with {@code oldSuffix}
     */
    public static Path replaceSuffix(Path path, String oldSuffix, String newSuffix) {
        String name = path.getFileName().toString();
        if (!name.endsWith(oldSuffix)) {
            throw new IllegalArgumentException(
                    "Expected string to end with '" + oldSuffix + "' but string is '" + path + "'");
        }
        return path.resolveSibling(name.substring(0, name.length() - oldSuffix.length()) + newSuffix);
    }

    /** The producer state snapshot file for {@code offset} in {@code dir}. */
    public static Path producerSnapshotFile(Path dir, long offset) {
        return dir.resolve(filenamePrefixFromOffset(offset) + PRODUCER_SNAPSHOT_FILE_SUFFIX);
    }
}
