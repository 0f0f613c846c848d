package io.krabka.plugin.rsm.local;

import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.storage.CustomMetadata;
import io.krabka.spi.storage.IndexType;
import io.krabka.spi.storage.LogSegmentData;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.spi.storage.RemoteStorageManager;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A remote tier on a local directory, laid out exactly as Kafka's LocalTieredStorage (see
 * {@link LocalTieredStorageLayout}), so that either reads what the other wrote. Unlike Kafka's test class, a copy
 * is atomic and durable: staged outside the tier, forced to disk, moved in with the {@code .log} last. Safe for
 * concurrent calls about different segments.
 */
public final class LocalRemoteStorageManager implements RemoteStorageManager {
    private static final System.Logger LOG = System.getLogger(LocalRemoteStorageManager.class.getName());

    /** Everything a configured instance uses; null before {@link #configure} and after {@link #close}. */
    private record Tier(
            LocalStorageConfig config,
            LocalTieredStorageLayout layout,
            StagingArea staging,
            SegmentStager stager,
            TierWriter writer,
            SegmentReader reader,
            PartitionLocks locks) {}

    private volatile Tier tier;
    private volatile boolean configured;

    /** An instance to configure. */
    public LocalRemoteStorageManager() {}

    /**
     * Checks the settings through {@link io.krabka.spi.plugin.PluginConfig#parse}, so direct use is checked as the
     * kernel checks it, creates {@code kafka-tiered-storage/} and the staging directory, and deletes what a
     * crashed instance left in staging.
     *
     * @throws ConfigException       naming the key and the value when a setting is missing, unknown or invalid,
     *                               or the directory cannot be used
     * @throws IllegalStateException if called twice
     */
    @Override
    public synchronized void configure(Map<String, ?> configs) {
        if (configured) {
            throw new IllegalStateException("the local remote storage manager is already configured");
        }
        LocalStorageConfig config = LocalStorageConfig.parse(configs);
        FileSync sync = new FileSync(config.fsync());
        LocalTieredStorageLayout layout = new LocalTieredStorageLayout(config.dir());
        StagingArea staging;
        try {
            if (!Files.isDirectory(layout.root())) {
                Files.createDirectories(layout.root());
                sync.directory(config.dir());
            }
            staging = StagingArea.open(config.dir());
        } catch (IOException e) {
            throw new ConfigException(LocalStorageConfig.DIR, config.dir(), "cannot be used: " + e);
        }
        tier = new Tier(
                config,
                layout,
                staging,
                new SegmentStager(sync),
                new TierWriter(layout.root(), sync),
                new SegmentReader(layout),
                new PartitionLocks());
        configured = true;
    }

    @Override
    public Optional<CustomMetadata> copyLogSegmentData(RemoteLogSegmentMetadata metadata, LogSegmentData data)
            throws RemoteStorageException {
        Tier current = tier();
        SegmentFiles target = current.layout.files(metadata);
        Path attempt = null;
        try {
            attempt = current.staging.newAttempt(metadata.remoteLogSegmentId().id());
            Map<SegmentFileType, Path> staged = current.stager.stage(data, attempt, target);
            publish(current, metadata, staged, target);
        } catch (IOException e) {
            throw new RemoteStorageException(
                    "cannot copy " + target.segment() + " to " + target.directory() + ": " + e, e);
        } finally {
            discard(current, attempt);
        }
        return Optional.empty();
    }

    /** Moves the staged files in; on failure, deletes what was moved so no half-published segment remains. */
    private static void publish(
            Tier current, RemoteLogSegmentMetadata metadata, Map<SegmentFileType, Path> staged, SegmentFiles target)
            throws IOException {
        ReentrantLock lock = current.locks.of(metadata.topicIdPartition());
        lock.lock();
        try {
            current.writer.publish(staged, target);
        } catch (IOException e) {
            try {
                current.writer.delete(target);
            } catch (IOException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        } finally {
            lock.unlock();
        }
    }

    /** Staging is swept by the next instance anyway, so a failure here must not fail a copy that succeeded. */
    private static void discard(Tier current, Path attempt) {
        if (attempt == null) {
            return;
        }
        try {
            current.staging.discard(attempt);
        } catch (IOException e) {
            LOG.log(System.Logger.Level.WARNING, "could not delete the staging directory " + attempt, e);
        }
    }

    @Override
    public InputStream fetchLogSegment(RemoteLogSegmentMetadata metadata, int startPosition)
            throws RemoteStorageException {
        return fetchLogSegment(metadata, startPosition, Integer.MAX_VALUE);
    }

    @Override
    public InputStream fetchLogSegment(RemoteLogSegmentMetadata metadata, int startPosition, int endPosition)
            throws RemoteStorageException {
        return tier().reader.segment(metadata, startPosition, endPosition);
    }

    @Override
    public InputStream fetchIndex(RemoteLogSegmentMetadata metadata, IndexType indexType)
            throws RemoteStorageException {
        return tier().reader.index(metadata, indexType);
    }

    /** Deletes the segment's files, or does nothing when {@code delete.enable=false}. Never throws not-found. */
    @Override
    public void deleteLogSegmentData(RemoteLogSegmentMetadata metadata) throws RemoteStorageException {
        Tier current = tier();
        if (!current.config.deleteEnabled()) {
            return;
        }
        SegmentFiles target = current.layout.files(metadata);
        ReentrantLock lock = current.locks.of(metadata.topicIdPartition());
        lock.lock();
        try {
            current.writer.delete(target);
        } catch (IOException e) {
            throw new RemoteStorageException(
                    "cannot delete " + target.segment() + " from " + target.directory() + ": " + e, e);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Deletes this instance's staging directory and releases its lock; with {@code delete.on.close}, deletes the
     * tier too. Idempotent. Streams already returned stay open and readable; every other call then throws
     * {@link IllegalStateException}.
     */
    @Override
    public synchronized void close() throws IOException {
        Tier closing = tier;
        tier = null;
        if (closing != null) {
            closing.staging.close();
            if (closing.config.deleteOnClose()) {
                closing.writer.clear();
            }
        }
    }

    /**
     * The tier of a configured instance that is not closed.
     *
     * @throws IllegalStateException before {@link #configure} and after {@link #close}, as the SPI asks: a closed
     *                               instance is no storage failure that a retry could mend
     */
    private Tier tier() {
        Tier current = tier;
        if (current == null) {
            throw new IllegalStateException(
                    configured
                            ? "the local remote storage manager is closed"
                            : "the local remote storage manager is not configured; call configure() first");
        }
        return current;
    }
}
