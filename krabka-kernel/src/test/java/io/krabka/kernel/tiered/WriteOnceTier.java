package io.krabka.kernel.tiered;

import io.krabka.spi.storage.CustomMetadata;
import io.krabka.spi.storage.IndexType;
import io.krabka.spi.storage.LogSegmentData;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.spi.storage.RemoteStorageManager;
import io.krabka.spi.storage.WriteOnceRemoteStorageManager;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The real local tier as a write-once archive, for the kernel's side of it: deletes refused and counted, abandoned
 * copies recorded, and the first {@code failingCopies} copies failing after their files were written (a real tier
 * cannot fail on demand).
 */
final class WriteOnceTier implements WriteOnceRemoteStorageManager {
    private final RemoteStorageManager delegate;
    private final AtomicInteger failingCopies;
    final AtomicInteger deleteCalls = new AtomicInteger();
    final List<RemoteLogSegmentMetadata> abandoned = new CopyOnWriteArrayList<>();

    WriteOnceTier(RemoteStorageManager delegate, int failingCopies) {
        this.delegate = delegate;
        this.failingCopies = new AtomicInteger(failingCopies);
    }

    @Override
    public void configure(Map<String, ?> configs) {
        delegate.configure(configs);
    }

    @Override
    public Optional<CustomMetadata> copyLogSegmentData(RemoteLogSegmentMetadata metadata, LogSegmentData data)
            throws RemoteStorageException {
        Optional<CustomMetadata> copied = delegate.copyLogSegmentData(metadata, data);
        if (failingCopies.getAndDecrement() > 0) {
            throw new RemoteStorageException("injected: the copy's last write failed");
        }
        return copied;
    }

    @Override
    public InputStream fetchLogSegment(RemoteLogSegmentMetadata metadata, int startPosition)
            throws RemoteStorageException {
        return delegate.fetchLogSegment(metadata, startPosition);
    }

    @Override
    public InputStream fetchLogSegment(RemoteLogSegmentMetadata metadata, int startPosition, int endPosition)
            throws RemoteStorageException {
        return delegate.fetchLogSegment(metadata, startPosition, endPosition);
    }

    @Override
    public InputStream fetchIndex(RemoteLogSegmentMetadata metadata, IndexType indexType)
            throws RemoteStorageException {
        return delegate.fetchIndex(metadata, indexType);
    }

    @Override
    public void deleteLogSegmentData(RemoteLogSegmentMetadata metadata) throws RemoteStorageException {
        deleteCalls.incrementAndGet();
        throw new RemoteStorageException("a write-once archive deletes nothing");
    }

    @Override
    public void abandonSegmentCopy(RemoteLogSegmentMetadata metadata) {
        abandoned.add(metadata);
    }

    @Override
    public void close() throws IOException {
        delegate.close();
    }
}
