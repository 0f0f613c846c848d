package io.krabka.kernel.log;

/** Kafka's file name suffixes for a segment's files, as in its {@code LogFileUtils}. */
public final class LogFileUtils {

    /** The offset index. */
    public static final String INDEX_FILE_SUFFIX = ".index";

    /** The time index. */
    public static final String TIME_INDEX_FILE_SUFFIX = ".timeindex";

    /** The transaction index. */
    public static final String TXN_INDEX_FILE_SUFFIX = ".txnindex";

    /** Appended to a file that is scheduled for deletion. */
    public static final String DELETED_FILE_SUFFIX = ".deleted";

    private LogFileUtils() {
    }
}
