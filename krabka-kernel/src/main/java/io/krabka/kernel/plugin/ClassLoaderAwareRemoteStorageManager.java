package io.krabka.kernel.plugin;

import io.krabka.spi.storage.CustomMetadata;
import io.krabka.spi.storage.IndexType;
import io.krabka.spi.storage.LogSegmentData;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.spi.storage.RemoteStorageManager;
import io.krabka.spi.storage.WriteOnceRemoteStorageManager;
import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A plugin's {@link RemoteStorageManager} whose every call runs with the plugin's class loader as context, and that
 * closes what the kernel opened for it (its object store, its metrics) after it. {@link #of} keeps a write-once manager one.
 */
class ClassLoaderAwareRemoteStorageManager implements RemoteStorageManager {
    private final RemoteStorageManager delegate;
    private final ClassLoader loader;
    private final Owned owned;

    private ClassLoaderAwareRemoteStorageManager(RemoteStorageManager delegate, ClassLoader loader, Owned owned) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.loader = Objects.requireNonNull(loader, "loader");
        this.owned = Objects.requireNonNull(owned, "owned");
    }

    /**
     * {@code delegate} wrapped: a {@link WriteOnceRemoteStorageManager} stays one, so that the kernel sees an
     * archive for what it is.
     *
     * @param owned what to close after the delegate (the object store the kernel opened for it, its metrics)
     */
    static RemoteStorageManager of(RemoteStorageManager delegate, ClassLoader loader, Owned owned) {
        return delegate instanceof WriteOnceRemoteStorageManager worm
                ? new WriteOnce(worm, loader, owned)
                : new ClassLoaderAwareRemoteStorageManager(delegate, loader, owned);
    }

    /** Runs a call into the plugin with its loader as context. */
    final <T, E extends Exception> T call(ContextClassLoader.PluginCall<T, E> call) throws E {
        return ContextClassLoader.call(loader, call);
    }

    @Override
    public void configure(Map<String, ?> configs) {
        ContextClassLoader.run(loader, () -> delegate.configure(configs));
    }

    @Override
    public Optional<CustomMetadata> copyLogSegmentData(
            RemoteLogSegmentMetadata remoteLogSegmentMetadata, LogSegmentData logSegmentData)
            throws RemoteStorageException {
        return ContextClassLoader.call(
                loader, () -> delegate.copyLogSegmentData(remoteLogSegmentMetadata, logSegmentData));
    }

    @Override
    public InputStream fetchLogSegment(RemoteLogSegmentMetadata remoteLogSegmentMetadata, int startPosition)
            throws RemoteStorageException {
        return ContextClassLoader.call(loader, () -> delegate.fetchLogSegment(remoteLogSegmentMetadata, startPosition));
    }

    @Override
    public InputStream fetchLogSegment(
            RemoteLogSegmentMetadata remoteLogSegmentMetadata, int startPosition, int endPosition)
            throws RemoteStorageException {
        return ContextClassLoader.call(
                loader, () -> delegate.fetchLogSegment(remoteLogSegmentMetadata, startPosition, endPosition));
    }

    @Override
    public InputStream fetchIndex(RemoteLogSegmentMetadata remoteLogSegmentMetadata, IndexType indexType)
            throws RemoteStorageException {
        return ContextClassLoader.call(loader, () -> delegate.fetchIndex(remoteLogSegmentMetadata, indexType));
    }

    @Override
    public void deleteLogSegmentData(RemoteLogSegmentMetadata remoteLogSegmentMetadata) throws RemoteStorageException {
        ContextClassLoader.run(loader, () -> delegate.deleteLogSegmentData(remoteLogSegmentMetadata));
    }

    @Override
    public void close() throws IOException {
        try {
            ContextClassLoader.run(loader, delegate::close);
        } finally {
            owned.close();
        }
    }

    @Override
    public String toString() {
        return delegate.toString();
    }

    /** A write-once manager, wrapped. */
    private static final class WriteOnce extends ClassLoaderAwareRemoteStorageManager
            implements WriteOnceRemoteStorageManager {
        private final WriteOnceRemoteStorageManager archive;

        WriteOnce(WriteOnceRemoteStorageManager archive, ClassLoader loader, Owned owned) {
            super(archive, loader, owned);
            this.archive = archive;
        }

        @Override
        public void abandonSegmentCopy(RemoteLogSegmentMetadata remoteLogSegmentMetadata)
                throws RemoteStorageException {
            call(() -> {
                archive.abandonSegmentCopy(remoteLogSegmentMetadata);
                return null;
            });
        }
    }
}
