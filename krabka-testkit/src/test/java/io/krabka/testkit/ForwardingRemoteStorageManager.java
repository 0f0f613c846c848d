package io.krabka.testkit;

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

/** Passes every call to another manager; a test overrides the one call it breaks. */
class ForwardingRemoteStorageManager implements RemoteStorageManager {

    final RemoteStorageManager delegate;

    ForwardingRemoteStorageManager(RemoteStorageManager delegate) {
        this.delegate = delegate;
    }

    @Override
    public void configure(Map<String, ?> configs) {
        delegate.configure(configs);
    }

    @Override
    public Optional<CustomMetadata> copyLogSegmentData(RemoteLogSegmentMetadata metadata, LogSegmentData data)
            throws RemoteStorageException {
        return delegate.copyLogSegmentData(metadata, data);
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
        delegate.deleteLogSegmentData(metadata);
    }

    @Override
    public void close() throws IOException {
        delegate.close();
    }
}
