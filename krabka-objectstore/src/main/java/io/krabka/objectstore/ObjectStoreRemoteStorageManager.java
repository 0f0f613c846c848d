package io.krabka.objectstore;

import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.storage.CustomMetadata;
import io.krabka.spi.storage.IndexType;
import io.krabka.spi.storage.InvalidRangeException;
import io.krabka.spi.storage.LogSegmentData;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.spi.storage.RemoteStorageManager;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A {@link RemoteStorageManager} over an {@link ObjectStore}: one object per segment artifact, keyed by
 * {@link SegmentObjectKeys}. A copy uploads the indexes first, all at once, and the {@code .log} last, so a
 * segment whose log object exists is complete; a copy that fails removes what it uploaded. A copy returns no custom metadata: the
 * key of every artifact follows from the segment's metadata and the configured prefix alone, so changing the
 * prefix of a tier that holds segments hides them (move the objects along, or keep the prefix).
 *
 * <p>A plugin hands the constructor an {@link Opener} that turns its configuration into a store; {@link
 * #configure(Map)} opens it and checks access once, so that a missing bucket or a refused permission stops the
 * broker at start with one line naming the bucket.
 */
public final class ObjectStoreRemoteStorageManager implements RemoteStorageManager {

    /** Opens the store a configuration names. */
    @FunctionalInterface
    public interface Opener {
        /**
         * Opens the store and key layout of a configuration, without contacting the store yet.
         *
         * @throws ConfigException naming the key and value of a missing or invalid setting
         */
        Tier open(Map<String, ?> configs);
    }

    /**
     * An opened store and where segments go in it.
     *
     * @param store the store, owned (and closed) by the storage manager from now on
     * @param keys  the key layout
     */
    public record Tier(ObjectStore store, SegmentObjectKeys keys) {
        /** Validates the parts. */
        public Tier {
            Objects.requireNonNull(store, "store");
            Objects.requireNonNull(keys, "keys");
        }
    }

    private final Opener opener;
    private volatile Tier tier;

    /** A storage manager that opens its store with {@code opener} when configured. */
    public ObjectStoreRemoteStorageManager(Opener opener) {
        this.opener = Objects.requireNonNull(opener, "opener");
    }

    /**
     * Opens the store and checks that its bucket may be used.
     *
     * @throws ConfigException for an invalid setting, or a bucket that is missing or refuses access
     */
    @Override
    public void configure(Map<String, ?> configs) {
        if (tier != null) {
            throw new IllegalStateException("already configured");
        }
        Tier opened = opener.open(configs);
        try {
            opened.store().checkAccess();
        } catch (RemoteStorageException e) {
            closeQuietly(opened.store(), e);
            throw new ConfigException(e.getMessage());
        }
        tier = opened;
    }

    @Override
    public Optional<CustomMetadata> copyLogSegmentData(RemoteLogSegmentMetadata metadata, LogSegmentData data)
            throws RemoteStorageException {
        Tier t = tier();
        List<StoreCalls.Call<Void>> indexes = new ArrayList<>();
        indexes.add(upload(t, metadata, SegmentArtifact.OFFSET_INDEX, data.offsetIndex()));
        indexes.add(upload(t, metadata, SegmentArtifact.TIME_INDEX, data.timeIndex()));
        data.transactionIndex()
                .ifPresent(txn -> indexes.add(upload(t, metadata, SegmentArtifact.TRANSACTION_INDEX, txn)));
        indexes.add(upload(t, metadata, SegmentArtifact.PRODUCER_SNAPSHOT, data.producerSnapshotIndex()));
        indexes.add(() -> {
            t.store().put(t.keys().key(metadata, SegmentArtifact.LEADER_EPOCH_CHECKPOINT), data.leaderEpochIndex());
            return null;
        });
        try {
            StoreCalls.allAtOnce(indexes, "uploading a segment's indexes");
            StoreCalls.guarded(upload(t, metadata, SegmentArtifact.SEGMENT, data.logSegment()));
        } catch (RemoteStorageException e) {
            // An interrupt fails the copy, but must not fail its cleanup too: the indexes, uploaded on other
            // threads, would stay fetchable. The status is cleared for the deletes and restored after.
            boolean interrupted = Thread.interrupted();
            try {
                deleteAll(t, metadata);
            } catch (RemoteStorageException cleanup) {
                e.addSuppressed(cleanup);
            } finally {
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
            throw e;
        }
        return Optional.empty();
    }

    @Override
    public InputStream fetchLogSegment(RemoteLogSegmentMetadata metadata, int startPosition)
            throws RemoteStorageException {
        return fetchLogSegment(metadata, startPosition, Integer.MAX_VALUE);
    }

    /**
     * Reads {@code startPosition} to {@code endPosition} of the log, clipped to its end. A range that starts at
     * the segment's size is empty and reads nothing from the store.
     *
     * @throws InvalidRangeException if {@code startPosition} is negative or beyond the segment's size, or
     *                               {@code endPosition} is before it
     */
    @Override
    public InputStream fetchLogSegment(RemoteLogSegmentMetadata metadata, int startPosition, int endPosition)
            throws RemoteStorageException {
        Tier t = tier();
        Optional<SegmentRange> range = SegmentRange.of(metadata, startPosition, endPosition);
        if (range.isEmpty()) {
            return InputStream.nullInputStream();
        }
        String key = t.keys().key(metadata, SegmentArtifact.SEGMENT);
        return StoreCalls.guarded(
                () -> t.store().read(key, range.get().from(), range.get().toInclusive()));
    }

    @Override
    public InputStream fetchIndex(RemoteLogSegmentMetadata metadata, IndexType indexType)
            throws RemoteStorageException {
        Tier t = tier();
        String key = t.keys().key(metadata, SegmentArtifact.of(indexType));
        return StoreCalls.guarded(() -> t.store().read(key));
    }

    /** Deletes every artifact, the log first, so that a segment is never left looking complete. */
    @Override
    public void deleteLogSegmentData(RemoteLogSegmentMetadata metadata) throws RemoteStorageException {
        deleteAll(tier(), metadata);
    }

    @Override
    public void close() throws IOException {
        Tier t = tier;
        tier = null;
        if (t != null) {
            t.store().close();
        }
    }

    private static void deleteAll(Tier t, RemoteLogSegmentMetadata metadata) throws RemoteStorageException {
        for (SegmentArtifact artifact : SegmentArtifact.values()) {
            String key = t.keys().key(metadata, artifact);
            StoreCalls.guarded(() -> {
                t.store().delete(key);
                return null;
            });
        }
    }

    private static StoreCalls.Call<Void> upload(
            Tier t, RemoteLogSegmentMetadata metadata, SegmentArtifact artifact, Path file) {
        String key = t.keys().key(metadata, artifact);
        return () -> {
            t.store().put(key, file);
            return null;
        };
    }

    private Tier tier() {
        Tier t = tier;
        if (t == null) {
            throw new IllegalStateException("the object-store remote storage manager is not configured, or closed");
        }
        return t;
    }

    private static void closeQuietly(ObjectStore store, Exception cause) {
        try {
            store.close();
        } catch (IOException | RuntimeException e) {
            cause.addSuppressed(e);
        }
    }
}
