package io.krabka.plugin.rsm.local;

import io.krabka.spi.storage.IndexType;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import io.krabka.spi.storage.RemoteStorageException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * Opens the files of complete segments as streams. A segment missing its {@code .log} or any other required file
 * is not found: it is a copy or a delete that did not finish, here or in Kafka's LocalTieredStorage, which writes
 * the {@code .log} first and the snapshot last.
 */
final class SegmentReader {
    private final LocalTieredStorageLayout layout;

    SegmentReader(LocalTieredStorageLayout layout) {
        this.layout = layout;
    }

    /** Bytes {@code start} to {@code end} of the {@code .log}, both inclusive, the end clamped to its last byte. */
    InputStream segment(RemoteLogSegmentMetadata metadata, int start, int end) throws RemoteStorageException {
        SegmentFiles files = layout.files(metadata);
        FetchRange range = FetchRange.of(start, end, files.segment());
        FileChannel channel = open(files, SegmentFileType.SEGMENT);
        try {
            return new BoundedFileInputStream(channel, start, range.lengthWithin(channel.size()));
        } catch (RemoteStorageException e) {
            closeQuietly(channel, e);
            throw e;
        } catch (IOException e) {
            closeQuietly(channel, e);
            throw new RemoteStorageException("cannot read " + files.segment() + ": " + e, e);
        }
    }

    /** One index, whole. */
    InputStream index(RemoteLogSegmentMetadata metadata, IndexType indexType) throws RemoteStorageException {
        SegmentFiles files = layout.files(metadata);
        FileChannel channel = open(files, SegmentFileType.of(indexType));
        try {
            return new BoundedFileInputStream(channel, 0, channel.size());
        } catch (IOException e) {
            closeQuietly(channel, e);
            throw new RemoteStorageException(
                    "cannot read the " + indexType + " index of " + files.segment() + ": " + e, e);
        }
    }

    private static FileChannel open(SegmentFiles files, SegmentFileType type) throws RemoteStorageException {
        List<SegmentFileType> missing = files.missing();
        if (!missing.isEmpty()) {
            throw new RemoteResourceNotFoundException(files.segment() + " is not in the remote tier: "
                    + (missing.contains(SegmentFileType.SEGMENT)
                            ? "no " + files.path(SegmentFileType.SEGMENT)
                            : "incomplete, missing " + missing + " in " + files.directory()));
        }
        Path path = files.path(type);
        try {
            return FileChannel.open(path, StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            // The optional transaction index, or any file deleted since the check.
            throw new RemoteResourceNotFoundException(
                    files.segment()
                            + (type.optional() ? " has no transaction index: no " : " is not in the remote tier: no ")
                            + path,
                    e);
        } catch (IOException e) {
            throw new RemoteStorageException("cannot open " + path + " of " + files.segment() + ": " + e, e);
        }
    }

    private static void closeQuietly(FileChannel channel, Exception primary) {
        try {
            channel.close();
        } catch (IOException e) {
            primary.addSuppressed(e);
        }
    }
}
