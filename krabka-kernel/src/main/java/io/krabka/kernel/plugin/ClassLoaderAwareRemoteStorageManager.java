package io.krabka.kernel.plugin;

import io.krabka.spi.storage.CustomMetadata;
import io.krabka.spi.storage.IndexType;
import io.krabka.spi.storage.LogSegmentData;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.spi.storage.RemoteStorageManager;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** A plugin's {@link RemoteStorageManager} whose every call runs with the plugin's class loader as context. */
final class ClassLoaderAwareRemoteStorageManager implements RemoteStorageManager {
    private final RemoteStorageManager delegate;
    private final ClassLoader loader;

    ClassLoaderAwareRemoteStorageManager(RemoteStorageManager delegate, ClassLoader loader) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.loader = Objects.requireNonNull(loader, "loader");
    }

    @Override
    public void configure(Map<String, ?> configs) {
        ContextClassLoader.run(loader, () -> delegate.configure(configs));
    }

    @Override
    public Optional<CustomMetadata> copyLogSegmentData(RemoteLogSegmentMetadata remoteLogSegmentMetadata,
                                                       LogSegmentData logSegmentData) throws RemoteStorageException {
        return ContextClassLoader.call(loader, () -> delegate.copyLogSegmentData(remoteLogSegmentMetadata, logSegmentData));
    }

    @Override
    public InputStream fetchLogSegment(RemoteLogSegmentMetadata remoteLogSegmentMetadata,
                                       int startPosition) throws RemoteStorageException {
        return ContextClassLoader.call(loader, () -> delegate.fetchLogSegment(remoteLogSegmentMetadata, startPosition));
    }

    @Override
    public InputStream fetchLogSegment(RemoteLogSegmentMetadata remoteLogSegmentMetadata,
                                       int startPosition, int endPosition) throws RemoteStorageException {
        return ContextClassLoader.call(loader,
                () -> delegate.fetchLogSegment(remoteLogSegmentMetadata, startPosition, endPosition));
    }

    @Override
    public InputStream fetchIndex(RemoteLogSegmentMetadata remoteLogSegmentMetadata,
                                  IndexType indexType) throws RemoteStorageException {
        return ContextClassLoader.call(loader, () -> delegate.fetchIndex(remoteLogSegmentMetadata, indexType));
    }

    @Override
    public void deleteLogSegmentData(RemoteLogSegmentMetadata remoteLogSegmentMetadata) throws RemoteStorageException {
        ContextClassLoader.run(loader, () -> delegate.deleteLogSegmentData(remoteLogSegmentMetadata));
    }

    @Override
    public void close() throws IOException {
        ContextClassLoader.run(loader, delegate::close);
    }

    @Override
    public String toString() {
        return delegate.toString();
    }
}
