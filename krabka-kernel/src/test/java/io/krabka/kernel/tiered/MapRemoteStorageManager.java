package io.krabka.kernel.tiered;

import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.CustomMetadata;
import io.krabka.spi.storage.IndexType;
import io.krabka.spi.storage.LogSegmentData;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.spi.storage.RemoteStorageManager;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A remote storage manager that serves index bytes from a map, counts its fetches, and can be made to fail or to
 * hold fetches at a gate. Only {@link #fetchIndex} is implemented: it is all the index cache uses.
 */
final class MapRemoteStorageManager implements RemoteStorageManager {

    private record Key(Uuid segmentId, IndexType type) {}

    private final Map<Key, byte[]> indexes = new ConcurrentHashMap<>();
    private final Map<Key, AtomicInteger> fetches = new ConcurrentHashMap<>();
    private final Map<IndexType, RemoteStorageException> failures = new ConcurrentHashMap<>();
    private final AtomicInteger fetchesStarted = new AtomicInteger();
    private volatile CountDownLatch gate = new CountDownLatch(0);

    void put(RemoteLogSegmentMetadata metadata, IndexType type, ByteBuffer bytes) {
        byte[] copy = new byte[bytes.remaining()];
        bytes.duplicate().get(copy);
        indexes.put(new Key(metadata.remoteLogSegmentId().id(), type), copy);
    }

    void failWith(IndexType type, RemoteStorageException failure) {
        failures.put(type, failure);
    }

    void stopFailing() {
        failures.clear();
    }

    /** Holds every fetch until {@link #openGate()}. */
    void closeGate() {
        gate = new CountDownLatch(1);
    }

    void openGate() {
        gate.countDown();
    }

    int fetchCount(RemoteLogSegmentMetadata metadata, IndexType type) {
        AtomicInteger count = fetches.get(new Key(metadata.remoteLogSegmentId().id(), type));
        return count == null ? 0 : count.get();
    }

    int fetchesStarted() {
        return fetchesStarted.get();
    }

    @Override
    public InputStream fetchIndex(RemoteLogSegmentMetadata metadata, IndexType type) throws RemoteStorageException {
        Key key = new Key(metadata.remoteLogSegmentId().id(), type);
        fetches.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
        fetchesStarted.incrementAndGet();
        try {
            gate.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RemoteStorageException("interrupted", e);
        }
        RemoteStorageException failure = failures.get(type);
        if (failure != null) {
            throw failure;
        }
        byte[] bytes = indexes.get(key);
        if (bytes == null) {
            throw new RemoteResourceNotFoundException("no " + type + " index for " + metadata.remoteLogSegmentId());
        }
        return new ByteArrayInputStream(bytes);
    }

    @Override
    public Optional<CustomMetadata> copyLogSegmentData(RemoteLogSegmentMetadata metadata, LogSegmentData data) {
        throw new UnsupportedOperationException("not used by the index cache");
    }

    @Override
    public InputStream fetchLogSegment(RemoteLogSegmentMetadata metadata, int startPosition) {
        throw new UnsupportedOperationException("not used by the index cache");
    }

    @Override
    public InputStream fetchLogSegment(RemoteLogSegmentMetadata metadata, int startPosition, int endPosition) {
        throw new UnsupportedOperationException("not used by the index cache");
    }

    @Override
    public void deleteLogSegmentData(RemoteLogSegmentMetadata metadata) {
        throw new UnsupportedOperationException("not used by the index cache");
    }

    @Override
    public void configure(Map<String, ?> configs) {}

    @Override
    public void close() {}
}
