package io.krabka.testkit;

import io.krabka.spi.storage.CustomMetadata;
import io.krabka.spi.storage.IndexType;
import io.krabka.spi.storage.InvalidRangeException;
import io.krabka.spi.storage.LogSegmentData;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.spi.storage.RemoteStorageManager;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * The smallest correct remote storage manager the kit's own tests could write: one directory per segment copy,
 * staged under a temporary name and renamed into place. It exists only to show that a correct implementation
 * passes every rule; the tests break it one rule at a time with decorators.
 */
final class ReferenceRemoteStorageManager implements RemoteStorageManager {

    private final Path root;
    private volatile boolean closed;

    ReferenceRemoteStorageManager(Path root) {
        this.root = root;
    }

    @Override
    public void configure(Map<String, ?> configs) {}

    @Override
    public Optional<CustomMetadata> copyLogSegmentData(RemoteLogSegmentMetadata metadata, LogSegmentData data)
            throws RemoteStorageException {
        checkOpen();
        Path target = dir(metadata);
        Path staging = target.resolveSibling(target.getFileName() + "." + UUID.randomUUID() + ".tmp");
        try {
            Files.createDirectories(staging);
            copyFile(data.logSegment(), staging.resolve("log"));
            copyFile(data.offsetIndex(), staging.resolve(IndexType.OFFSET.name()));
            copyFile(data.timeIndex(), staging.resolve(IndexType.TIMESTAMP.name()));
            if (data.transactionIndex().isPresent()) {
                copyFile(data.transactionIndex().get(), staging.resolve(IndexType.TRANSACTION.name()));
            }
            copyFile(data.producerSnapshotIndex(), staging.resolve(IndexType.PRODUCER_SNAPSHOT.name()));
            ByteBuffer epochs = data.leaderEpochIndex();
            byte[] checkpoint = new byte[epochs.remaining()];
            epochs.get(checkpoint);
            Files.write(staging.resolve(IndexType.LEADER_EPOCH.name()), checkpoint);
            deleteTree(target);
            Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
            return Optional.empty();
        } catch (IOException | UncheckedIOException e) {
            deleteTree(staging);
            throw new RemoteStorageException("copy of " + metadata.remoteLogSegmentId() + " failed", e);
        }
    }

    @Override
    public InputStream fetchLogSegment(RemoteLogSegmentMetadata metadata, int startPosition)
            throws RemoteStorageException {
        checkOpen();
        long size = size(metadata);
        if (startPosition < 0 || startPosition > size) {
            throw new InvalidRangeException("start " + startPosition + " outside a segment of " + size + " bytes");
        }
        try {
            InputStream stream = Files.newInputStream(dir(metadata).resolve("log"));
            stream.skipNBytes(startPosition);
            return stream;
        } catch (IOException e) {
            throw new RemoteStorageException("fetch of " + metadata.remoteLogSegmentId() + " failed", e);
        }
    }

    @Override
    public InputStream fetchLogSegment(RemoteLogSegmentMetadata metadata, int startPosition, int endPosition)
            throws RemoteStorageException {
        checkOpen();
        long size = size(metadata);
        if (startPosition < 0 || endPosition < startPosition || startPosition > size) {
            throw new InvalidRangeException(
                    "range " + startPosition + ".." + endPosition + " invalid for " + size + " bytes");
        }
        int length = (int) Math.max(0, Math.min(endPosition, size - 1) - startPosition + 1);
        try (InputStream stream = fetchLogSegment(metadata, startPosition)) {
            return new ByteArrayInputStream(stream.readNBytes(length));
        } catch (IOException e) {
            throw new RemoteStorageException("fetch of " + metadata.remoteLogSegmentId() + " failed", e);
        }
    }

    @Override
    public InputStream fetchIndex(RemoteLogSegmentMetadata metadata, IndexType indexType)
            throws RemoteStorageException {
        checkOpen();
        Path index = dir(metadata).resolve(indexType.name());
        try {
            return Files.newInputStream(index);
        } catch (IOException e) {
            throw new RemoteResourceNotFoundException(
                    "no " + indexType + " index for " + metadata.remoteLogSegmentId(), e);
        }
    }

    @Override
    public void deleteLogSegmentData(RemoteLogSegmentMetadata metadata) throws RemoteStorageException {
        checkOpen();
        try {
            deleteTree(dir(metadata));
        } catch (UncheckedIOException e) {
            throw new RemoteStorageException("delete of " + metadata.remoteLogSegmentId() + " failed", e);
        }
    }

    @Override
    public void close() {
        closed = true;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the reference remote storage manager is closed");
        }
    }

    private Path dir(RemoteLogSegmentMetadata metadata) {
        return root.resolve(metadata.topicIdPartition().topicId() + "-"
                        + metadata.topicIdPartition().partition())
                .resolve(metadata.remoteLogSegmentId().id().toString());
    }

    private long size(RemoteLogSegmentMetadata metadata) throws RemoteStorageException {
        try {
            return Files.size(dir(metadata).resolve("log"));
        } catch (IOException e) {
            throw new RemoteResourceNotFoundException("no segment " + metadata.remoteLogSegmentId(), e);
        }
    }

    /** Copies by reading, as a plugin uploading a file does; {@code Files.copy} would copy a directory as one. */
    private static void copyFile(Path from, Path to) throws IOException {
        try (InputStream in = Files.newInputStream(from)) {
            Files.copy(in, to);
        }
    }

    private static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
