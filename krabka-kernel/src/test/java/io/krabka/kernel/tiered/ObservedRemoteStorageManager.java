package io.krabka.kernel.tiered;

import io.krabka.spi.storage.CustomMetadata;
import io.krabka.spi.storage.IndexType;
import io.krabka.spi.storage.LogSegmentData;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.spi.storage.RemoteStorageManager;
import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;

/**
 * A real remote storage manager seen through a wrapper: the segment ranges fetched are recorded, and segment
 * fetches can be made to fail, as a broken remote tier does, or to wait at a gate, as a slow one does.
 */
public final class ObservedRemoteStorageManager implements RemoteStorageManager {

    /**
     * A segment fetch.
     *
     * @param start the first byte
     * @param end   the last byte asked for, inclusive; -1 for "to the end of the segment"
     */
    public record Range(int start, int end) {}

    private final RemoteStorageManager delegate;
    private final List<Range> ranges = new CopyOnWriteArrayList<>();
    private volatile boolean failing;
    private volatile CountDownLatch gate = new CountDownLatch(0);

    public ObservedRemoteStorageManager(RemoteStorageManager delegate) {
        this.delegate = delegate;
    }

    /** The segment fetches so far. */
    public List<Range> ranges() {
        return List.copyOf(ranges);
    }

    /** Makes segment fetches fail with a {@link RemoteStorageException}. */
    public void fail() {
        failing = true;
    }

    /** Holds segment fetches until {@link #release}. */
    public void hold() {
        gate = new CountDownLatch(1);
    }

    public void release() {
        gate.countDown();
    }

    private void await() throws RemoteStorageException {
        if (failing) {
            throw new RemoteStorageException("the remote tier is down (test)");
        }
        try {
            gate.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RemoteStorageException(new InterruptedIOException("interrupted at the gate"));
        }
    }

    @Override
    public InputStream fetchLogSegment(RemoteLogSegmentMetadata metadata, int startPosition)
            throws RemoteStorageException {
        ranges.add(new Range(startPosition, -1));
        await();
        return delegate.fetchLogSegment(metadata, startPosition);
    }

    @Override
    public InputStream fetchLogSegment(RemoteLogSegmentMetadata metadata, int startPosition, int endPosition)
            throws RemoteStorageException {
        ranges.add(new Range(startPosition, endPosition));
        await();
        return delegate.fetchLogSegment(metadata, startPosition, endPosition);
    }

    @Override
    public Optional<CustomMetadata> copyLogSegmentData(RemoteLogSegmentMetadata metadata, LogSegmentData data)
            throws RemoteStorageException {
        return delegate.copyLogSegmentData(metadata, data);
    }

    @Override
    public InputStream fetchIndex(RemoteLogSegmentMetadata metadata, IndexType indexType)
            throws RemoteStorageException {
        return delegate.fetchIndex(metadata, indexType);
    }

    @Override
    public void deleteLogSegmentData(RemoteLogSegmentMetadata metadata) throws RemoteStorageException {
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
