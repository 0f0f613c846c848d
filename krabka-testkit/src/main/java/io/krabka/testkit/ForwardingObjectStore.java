package io.krabka.testkit;

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

/**
 * An {@link ObjectStore} that passes every call to another: a test overrides the calls it watches or fails, as a
 * plugin author's fault tests do where a real store cannot produce the fault.
 */
public class ForwardingObjectStore implements ObjectStore {
    private final ObjectStore delegate;

    /** A store that forwards to {@code delegate}. */
    public ForwardingObjectStore(ObjectStore delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /** The store calls go to. */
    protected ObjectStore delegate() {
        return delegate;
    }

    @Override
    public void configure(Map<String, ?> configs) {
        delegate.configure(configs);
    }

    @Override
    public String location() {
        return delegate.location();
    }

    @Override
    public StoredObject put(String key, Path file) throws RemoteStorageException {
        return delegate.put(key, file);
    }

    @Override
    public StoredObject put(String key, ByteBuffer bytes) throws RemoteStorageException {
        return delegate.put(key, bytes);
    }

    @Override
    public StoredObject create(String key, Path file) throws RemoteStorageException {
        return delegate.create(key, file);
    }

    @Override
    public StoredObject create(String key, ByteBuffer bytes) throws RemoteStorageException {
        return delegate.create(key, bytes);
    }

    @Override
    public InputStream read(String key, Optional<String> version, long from, long toInclusive)
            throws RemoteStorageException {
        return delegate.read(key, version, from, toInclusive);
    }

    @Override
    public InputStream read(String key, Optional<String> version) throws RemoteStorageException {
        return delegate.read(key, version);
    }

    @Override
    public Optional<StoredObject> head(String key, Optional<String> version) throws RemoteStorageException {
        return delegate.head(key, version);
    }

    @Override
    public ObjectListing list(String prefix, Optional<String> pageToken) throws RemoteStorageException {
        return delegate.list(prefix, pageToken);
    }

    @Override
    public List<IncompleteUpload> incompleteUploads(String prefix) throws RemoteStorageException {
        return delegate.incompleteUploads(prefix);
    }

    @Override
    public StoreProtection protection() throws RemoteStorageException {
        return delegate.protection();
    }

    @Override
    public void delete(String key) throws RemoteStorageException {
        delegate.delete(key);
    }

    @Override
    public void checkAccess() throws RemoteStorageException {
        delegate.checkAccess();
    }

    @Override
    public void close() throws IOException {
        delegate.close();
    }
}
