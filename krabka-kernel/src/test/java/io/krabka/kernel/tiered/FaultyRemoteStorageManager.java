package io.krabka.kernel.tiered;

import io.krabka.spi.storage.CustomMetadata;
import io.krabka.spi.storage.IndexType;
import io.krabka.spi.storage.LogSegmentData;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.spi.storage.RemoteStorageManager;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * A real remote storage manager with faults injected into its copies on a schedule: the copy attempt number
 * (from 1) says which fault, if any; the first deletes may fail too. Faults the real plugin cannot produce on demand: a store failing before any
 * byte is written, one failing after every byte is written (as a lost acknowledgement), or one returning more
 * custom metadata than the broker accepts.
 */
final class FaultyRemoteStorageManager implements RemoteStorageManager {

    enum Fault {
        NONE,
        FAIL_BEFORE_DATA,
        FAIL_AFTER_DATA,
        OVERSIZED_CUSTOM_METADATA
    }

    private final RemoteStorageManager delegate;
    private final IntFunction<Fault> schedule;
    private final AtomicInteger attempts = new AtomicInteger();
    private final AtomicInteger failingDeletes;

    FaultyRemoteStorageManager(RemoteStorageManager delegate, IntFunction<Fault> schedule) {
        this(delegate, schedule, 0);
    }

    /** With the first {@code failingDeletes} deletes failing too, before deleting anything. */
    FaultyRemoteStorageManager(RemoteStorageManager delegate, IntFunction<Fault> schedule, int failingDeletes) {
        this.delegate = delegate;
        this.schedule = schedule;
        this.failingDeletes = new AtomicInteger(failingDeletes);
    }

    int attempts() {
        return attempts.get();
    }

    @Override
    public Optional<CustomMetadata> copyLogSegmentData(RemoteLogSegmentMetadata metadata, LogSegmentData data)
            throws RemoteStorageException {
        Fault fault = schedule.apply(attempts.incrementAndGet());
        if (fault == Fault.FAIL_BEFORE_DATA) {
            throw new RemoteStorageException("injected failure before the copy of " + metadata.remoteLogSegmentId());
        }
        Optional<CustomMetadata> custom = delegate.copyLogSegmentData(metadata, data);
        return switch (fault) {
            case FAIL_AFTER_DATA ->
                throw new RemoteStorageException("injected failure after the copy of " + metadata.remoteLogSegmentId());
            case OVERSIZED_CUSTOM_METADATA -> Optional.of(new CustomMetadata(new byte[129]));
            default -> custom;
        };
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
        if (failingDeletes.getAndDecrement() > 0) {
            throw new RemoteStorageException("injected failure of the delete of " + metadata.remoteLogSegmentId());
        }
        delegate.deleteLogSegmentData(metadata);
    }

    @Override
    public void configure(Map<String, ?> configs) {
        delegate.configure(configs);
    }

    @Override
    public void close() throws IOException {
        delegate.close();
    }
}
