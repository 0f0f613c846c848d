package com.example.krabka.rsm.sample;

import com.example.krabka.rsm.sample.SegmentPack.Part;
import io.krabka.spi.plugin.Monitorable;
import io.krabka.spi.plugin.PluginMetrics;
import io.krabka.spi.storage.CustomMetadata;
import io.krabka.spi.storage.IndexType;
import io.krabka.spi.storage.InvalidRangeException;
import io.krabka.spi.storage.LogSegmentData;
import io.krabka.spi.storage.RemoteLogSegmentId;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.spi.storage.RemoteStorageManager;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A remote tier in a directory that keeps each segment, its indexes included, as one {@link SegmentPack} file:
 * {@code <dir>/<topicId>-<partition>/<segmentId>.pack}. A copy writes the pack under a temporary name, forces it
 * to disk and renames it into place, so a pack is either whole or absent; a delete removes the one file. Safe for
 * concurrent calls: every segment has a file of its own and no state is shared but the configuration.
 */
public final class PackedRemoteStorageManager implements RemoteStorageManager, Monitorable {
    private static final String SUFFIX = ".pack";

    private volatile PackedStorageConfig config;
    private volatile boolean closed;
    private final AtomicInteger copiesInProgress = new AtomicInteger();
    // Until the kernel hands over its metrics (the kit never does), copies are measured into nothing.
    private volatile PluginMetrics.Timer copyTime = nanos -> {};
    private volatile PluginMetrics.Counter copiedBytes = bytes -> {};

    /** An instance to configure. */
    public PackedRemoteStorageManager() {
    }

    /**
     * Takes the settings, checked as the kernel checks them.
     *
     * @throws io.krabka.spi.plugin.ConfigException naming the key and the value when a setting is missing, unknown
     *                                               or invalid
     * @throws IllegalStateException                 if called twice
     */
    @Override
    public synchronized void configure(Map<String, ?> configs) {
        if (config != null || closed) {
            throw new IllegalStateException("the pack remote storage manager is already " + (closed ? "closed" : "configured"));
        }
        config = PackedStorageConfig.parse(configs);
    }

    /**
     * Publishes the copies' rate and time ({@code CopyRateAndTimeMs}), the bytes they wrote
     * ({@code CopyBytesPerSec}) and the copies under way ({@code CopiesInProgress}).
     */
    @Override
    public void withPluginMetrics(PluginMetrics metrics) {
        copyTime = metrics.timer("CopyRateAndTimeMs");
        copiedBytes = metrics.counter("CopyBytesPerSec");
        metrics.gauge("CopiesInProgress", copiesInProgress::get);
    }

    @Override
    public Optional<CustomMetadata> copyLogSegmentData(RemoteLogSegmentMetadata metadata, LogSegmentData data)
            throws RemoteStorageException {
        Path pack = pack(metadata.remoteLogSegmentId());
        Path partition = pack.getParent();
        Path temporary = partition.resolve("." + pack.getFileName() + "." + UUID.randomUUID() + ".tmp");
        long started = System.nanoTime();
        copiesInProgress.incrementAndGet();
        try {
            if (!Files.isDirectory(partition)) {
                Files.createDirectories(partition);
                forceDirectory(partition.getParent());
            }
            SegmentPack.write(data, temporary);
            // A retry of the same id replaces what an earlier attempt left, in one step.
            Files.move(temporary, pack, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            forceDirectory(partition);
            copiedBytes.increment(Files.size(pack));
            copyTime.record(System.nanoTime() - started);
        } catch (IOException e) {
            try {
                Files.deleteIfExists(temporary);
            } catch (IOException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw new RemoteStorageException("cannot copy segment " + metadata.remoteLogSegmentId() + " to " + pack + ": " + e, e);
        } finally {
            copiesInProgress.decrementAndGet();
        }
        return Optional.empty();
    }

    @Override
    public InputStream fetchLogSegment(RemoteLogSegmentMetadata metadata, int startPosition) throws RemoteStorageException {
        return fetchLogSegment(metadata, startPosition, Integer.MAX_VALUE);
    }

    @Override
    public InputStream fetchLogSegment(RemoteLogSegmentMetadata metadata, int startPosition, int endPosition)
            throws RemoteStorageException {
        if (startPosition < 0 || endPosition < startPosition) {
            throw new InvalidRangeException("the range " + startPosition + " to " + endPosition + " of segment "
                    + metadata.remoteLogSegmentId() + " is negative or reversed");
        }
        return read(metadata.remoteLogSegmentId(), (pack, file) -> {
            long size = pack.length(Part.LOG);
            if (startPosition > size) {
                throw new InvalidRangeException("position " + startPosition + " is beyond the end of segment "
                        + metadata.remoteLogSegmentId() + " (" + size + " bytes)");
            }
            long start = pack.offset(Part.LOG) + startPosition;
            long end = pack.offset(Part.LOG) + Math.min((long) endPosition + 1, size);
            return new RegionInputStream(file, start, Math.max(start, end));
        });
    }

    @Override
    public InputStream fetchIndex(RemoteLogSegmentMetadata metadata, IndexType indexType) throws RemoteStorageException {
        Part part = switch (indexType) {
            case OFFSET -> Part.OFFSET_INDEX;
            case TIMESTAMP -> Part.TIME_INDEX;
            case PRODUCER_SNAPSHOT -> Part.PRODUCER_SNAPSHOT;
            case LEADER_EPOCH -> Part.LEADER_EPOCH;
            case TRANSACTION -> Part.TRANSACTION_INDEX;
        };
        return read(metadata.remoteLogSegmentId(), (pack, file) -> {
            if (!pack.has(part)) {
                throw new RemoteResourceNotFoundException("segment " + metadata.remoteLogSegmentId() + " has no " + indexType + " index");
            }
            return new RegionInputStream(file, pack.offset(part), pack.offset(part) + pack.length(part));
        });
    }

    /** Deletes the segment's pack; a pack that is not there is already deleted. */
    @Override
    public void deleteLogSegmentData(RemoteLogSegmentMetadata metadata) throws RemoteStorageException {
        Path pack = pack(metadata.remoteLogSegmentId());
        try {
            if (Files.deleteIfExists(pack)) {
                forceDirectory(pack.getParent());
            }
        } catch (IOException e) {
            throw new RemoteStorageException("cannot delete segment " + metadata.remoteLogSegmentId() + " at " + pack + ": " + e, e);
        }
    }

    /** Refuses further calls; streams already returned stay open. */
    @Override
    public void close() {
        closed = true;
    }

    /** What a read makes of an open pack; it owns the file only if it returns. */
    @FunctionalInterface
    private interface PackReader {
        InputStream read(SegmentPack pack, FileChannel file) throws IOException, RemoteStorageException;
    }

    /** Opens a segment's pack, checks it, and hands it to {@code reader}; closes it unless a stream took it. */
    private InputStream read(RemoteLogSegmentId id, PackReader reader) throws RemoteStorageException {
        Path path = pack(id);
        FileChannel file;
        try {
            file = FileChannel.open(path, StandardOpenOption.READ);
        } catch (NoSuchFileException e) {
            throw new RemoteResourceNotFoundException("segment " + id + " is not in the tier (no " + path + ")", e);
        } catch (IOException e) {
            throw new RemoteStorageException("cannot open segment " + id + " at " + path + ": " + e, e);
        }
        try {
            return reader.read(SegmentPack.read(file, path), file);
        } catch (RemoteStorageException | RuntimeException e) {
            close(file, e);
            throw e;
        } catch (IOException e) {
            close(file, e);
            throw new RemoteStorageException("cannot read segment " + id + " from " + path + ": " + e, e);
        }
    }

    private static void close(FileChannel file, Exception failure) {
        try {
            file.close();
        } catch (IOException closing) {
            failure.addSuppressed(closing);
        }
    }

    private Path pack(RemoteLogSegmentId id) throws RemoteStorageException {
        PackedStorageConfig current = config;
        if (closed || current == null) {
            // Not a RemoteStorageException: the SPI asks for IllegalStateException, which no caller retries.
            throw new IllegalStateException(closed
                    ? "the pack remote storage manager is closed"
                    : "the pack remote storage manager is not configured; call configure() first");
        }
        // Ids only: a topic name could hold characters that are not safe in a path.
        return current.dir().resolve(id.topicIdPartition().topicId() + "-" + id.topicIdPartition().partition())
                .resolve(id.id() + SUFFIX);
    }

    /** Makes a change to the directory's entries (a new, renamed or deleted file) durable. */
    private static void forceDirectory(Path directory) throws IOException {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }
}
