package io.krabka.kernel.log;

import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.stream.Stream;

/**
 * The four files of a segment: opened together (none left open if one fails), named, deleted and closed together.
 *
 * @param log         the records ({@code .log})
 * @param offsetIndex the offset index ({@code .index})
 * @param timeIndex   the time index ({@code .timeindex})
 * @param txnIndex    the transaction index ({@code .txnindex})
 */
record SegmentFiles(FileRecords log, OffsetIndex offsetIndex, TimeIndex timeIndex, TransactionIndex txnIndex) {

    /** Opens the files of the segment at {@code baseOffset} in {@code dir}, with Kafka's names. */
    static SegmentFiles open(
            Path dir,
            long baseOffset,
            int maxIndexSize,
            boolean fileAlreadyExists,
            int initFileSize,
            boolean preallocate,
            String fileSuffix)
            throws IOException {
        FileRecords log = FileRecords.open(
                LogFileUtils.logFile(dir, baseOffset, fileSuffix), fileAlreadyExists, initFileSize, preallocate);
        OffsetIndex offsetIndex = null;
        TimeIndex timeIndex = null;
        try {
            offsetIndex = new OffsetIndex(
                    LogFileUtils.offsetIndexFile(dir, baseOffset, fileSuffix), baseOffset, maxIndexSize, true);
            timeIndex = new TimeIndex(
                    LogFileUtils.timeIndexFile(dir, baseOffset, fileSuffix), baseOffset, maxIndexSize, true);
            TransactionIndex txnIndex =
                    new TransactionIndex(baseOffset, LogFileUtils.transactionIndexFile(dir, baseOffset, fileSuffix));
            return new SegmentFiles(log, offsetIndex, timeIndex, txnIndex);
        } catch (IOException | RuntimeException e) {
            try {
                closeAll(offsetIndex, timeIndex, log);
            } catch (IOException closing) {
                e.addSuppressed(closing);
            }
            throw e;
        }
    }

    /** The segment's four files, under their current names. */
    static Stream<Path> names(LogSegment segment) {
        return Stream.of(
                segment.log().file(),
                segment.offsetIndex().file(),
                segment.timeIndex().file(),
                segment.txnIndex().file());
    }

    /** Sets the modification time of the records and index files (the transaction index may not exist). */
    static void setLastModified(LogSegment segment, long ms) throws IOException {
        FileTime fileTime = FileTime.fromMillis(ms);
        Files.setLastModifiedTime(segment.log().file(), fileTime);
        Files.setLastModifiedTime(segment.offsetIndex().file(), fileTime);
        Files.setLastModifiedTime(segment.timeIndex().file(), fileTime);
    }

    /** Deletes the segment's files, each attempted; the first failure is thrown with the others suppressed. */
    static void deleteIfExists(LogSegment segment) throws IOException {
        IOException failure = null;
        failure = delete("log", segment.log().file(), segment.log()::deleteIfExists, failure);
        failure = delete("offset index", segment.offsetIndex().file(), segment.offsetIndex()::deleteIfExists, failure);
        failure = delete("time index", segment.timeIndex().file(), segment.timeIndex()::deleteIfExists, failure);
        failure = delete("transaction index", segment.txnIndex().file(), segment.txnIndex()::deleteIfExists, failure);
        if (failure != null) {
            throw failure;
        }
    }

    /** Deletes the files of the segment at {@code baseOffset} in {@code dir} whose names end with {@code suffix}. */
    static void deleteIfExists(Path dir, long baseOffset, String suffix) throws IOException {
        Files.deleteIfExists(LogFileUtils.offsetIndexFile(dir, baseOffset, suffix));
        Files.deleteIfExists(LogFileUtils.timeIndexFile(dir, baseOffset, suffix));
        Files.deleteIfExists(LogFileUtils.transactionIndexFile(dir, baseOffset, suffix));
        Files.deleteIfExists(LogFileUtils.logFile(dir, baseOffset, suffix));
    }

    @FunctionalInterface
    private interface Deletion {
        boolean delete() throws IOException;
    }

    private static IOException delete(String type, Path file, Deletion deletion, IOException failure) {
        try {
            deletion.delete();
            return failure;
        } catch (IOException e) {
            IOException wrapped = new IOException("Delete of " + type + " " + file + " failed.", e);
            if (failure == null) {
                return wrapped;
            }
            failure.addSuppressed(wrapped);
            return failure;
        }
    }

    /** Closes each of {@code closeables} that is not null; the first failure is thrown with the others suppressed. */
    static void closeAll(Closeable... closeables) throws IOException {
        Exception failure = null;
        for (Closeable closeable : closeables) {
            if (closeable == null) {
                continue;
            }
            try {
                closeable.close();
            } catch (IOException | RuntimeException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        if (failure instanceof IOException e) {
            throw e;
        }
        if (failure != null) {
            throw (RuntimeException) failure;
        }
    }
}
