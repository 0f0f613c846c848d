package io.krabka.kernel.plugin;

import io.krabka.spi.objectstore.IncompleteUpload;
import io.krabka.spi.objectstore.ObjectListing;
import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.spi.objectstore.StoreProtection;
import io.krabka.spi.objectstore.StoredObject;
import io.krabka.spi.storage.RemoteStorageException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/** A plugin's {@link ObjectStore} whose every call runs with the plugin's class loader as context. */
final class ClassLoaderAwareObjectStore implements ObjectStore {
    private final ObjectStore delegate;
    private final ClassLoader loader;
    private final Owned owned;

    /** {@code delegate} wrapped; {@code owned} (its metrics) is closed after it. */
    ClassLoaderAwareObjectStore(ObjectStore delegate, ClassLoader loader, Owned owned) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.loader = Objects.requireNonNull(loader, "loader");
        this.owned = Objects.requireNonNull(owned, "owned");
    }

    @Override
    public void configure(Map<String, ?> configs) {
        ContextClassLoader.run(loader, () -> delegate.configure(configs));
    }

    @Override
    public String location() {
        return ContextClassLoader.call(loader, delegate::location);
    }

    @Override
    public StoredObject put(String key, Path file) throws RemoteStorageException {
        return ContextClassLoader.call(loader, () -> delegate.put(key, file));
    }

    @Override
    public StoredObject put(String key, ByteBuffer bytes) throws RemoteStorageException {
        return ContextClassLoader.call(loader, () -> delegate.put(key, bytes));
    }

    @Override
    public StoredObject create(String key, Path file) throws RemoteStorageException {
        return ContextClassLoader.call(loader, () -> delegate.create(key, file));
    }

    @Override
    public StoredObject create(String key, ByteBuffer bytes) throws RemoteStorageException {
        return ContextClassLoader.call(loader, () -> delegate.create(key, bytes));
    }

    @Override
    public InputStream read(String key, Optional<String> version, long from, long toInclusive)
            throws RemoteStorageException {
        return ContextClassLoader.call(loader, () -> delegate.read(key, version, from, toInclusive));
    }

    @Override
    public InputStream read(String key, Optional<String> version) throws RemoteStorageException {
        return ContextClassLoader.call(loader, () -> delegate.read(key, version));
    }

    @Override
    public Optional<StoredObject> head(String key, Optional<String> version) throws RemoteStorageException {
        return ContextClassLoader.call(loader, () -> delegate.head(key, version));
    }

    @Override
    public ObjectListing list(String prefix, Optional<String> pageToken) throws RemoteStorageException {
        return ContextClassLoader.call(loader, () -> delegate.list(prefix, pageToken));
    }

    @Override
    public List<IncompleteUpload> incompleteUploads(String prefix) throws RemoteStorageException {
        return ContextClassLoader.call(loader, () -> delegate.incompleteUploads(prefix));
    }

    @Override
    public StoreProtection protection() throws RemoteStorageException {
        return ContextClassLoader.call(loader, delegate::protection);
    }

    @Override
    public void delete(String key) throws RemoteStorageException {
        ContextClassLoader.run(loader, () -> delegate.delete(key));
    }

    @Override
    public void checkAccess() throws RemoteStorageException {
        ContextClassLoader.run(loader, delegate::checkAccess);
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
}
