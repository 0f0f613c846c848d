package io.krabka.archive.verify;

import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.spi.objectstore.StoredObject;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import io.krabka.spi.storage.RemoteStorageException;
import java.io.IOException;
import java.io.InputStream;
import java.util.Optional;

/**
 * The verifier's calls to the store, with its two kinds of failure kept apart: what the archive lacks (a missing
 * object, a key the store refuses) is a finding, and a store that fails to answer makes the archive unreadable.
 * Its document reads are public so that every reader of manifests and abandonment records reads them alike,
 * capped before they are buffered.
 */
public final class StoreReads {

    private final ObjectStore store;

    /** The reads of an archive in {@code store}. */
    public StoreReads(ObjectStore store) {
        this.store = store;
    }

    /** What a small document read found. */
    public sealed interface Document {
        /** The document's bytes. */
        record Found(byte[] bytes) implements Document {
            /** Copies the bytes in. */
            public Found {
                bytes = bytes.clone();
            }

            /** A copy of the bytes. */
            @Override
            public byte[] bytes() {
                return bytes.clone();
            }
        }

        /** Above the cap: not read. */
        record TooLarge(long size) implements Document {}

        /** Not in the store (any more). */
        record Missing() implements Document {}
    }

    /**
     * Reads a document of at most {@code maxBytes}, its size asked first, as the original does, so that an
     * oversized object is never buffered.
     *
     * @throws ArchiveUnreadableException if the store fails to answer
     */
    public Document document(String key, long maxBytes) throws ArchiveUnreadableException {
        Optional<StoredObject> described = head(key, Optional.empty());
        if (described.isEmpty()) {
            return new Document.Missing();
        }
        if (described.get().size() > maxBytes) {
            return new Document.TooLarge(described.get().size());
        }
        try (InputStream in = store.read(key, Optional.empty())) {
            byte[] bytes = in.readNBytes(Math.toIntExact(maxBytes + 1));
            return bytes.length > maxBytes ? new Document.TooLarge(bytes.length) : new Document.Found(bytes);
        } catch (RemoteResourceNotFoundException e) {
            return new Document.Missing();
        } catch (RemoteStorageException | IOException e) {
            throw unreadable("reading " + key, e);
        }
    }

    /**
     * What the store says of an object's version (or its latest); empty when it has no such object, or refuses the
     * key as one it could not hold.
     */
    Optional<StoredObject> head(String key, Optional<String> version) throws ArchiveUnreadableException {
        try {
            return store.head(key, version);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        } catch (RemoteStorageException e) {
            throw unreadable("asking for " + key, e);
        }
    }

    /** Opens an object's version for reading; empty when it is not there. */
    Optional<InputStream> open(String key, Optional<String> version) throws ArchiveUnreadableException {
        try {
            return Optional.of(store.read(key, version));
        } catch (RemoteResourceNotFoundException | IllegalArgumentException e) {
            return Optional.empty();
        } catch (RemoteStorageException e) {
            throw unreadable("reading " + key, e);
        }
    }

    /** The failure of a read that the archive's content did not cause. */
    ArchiveUnreadableException unreadable(String what, Exception cause) {
        return new ArchiveUnreadableException(
                "cannot read the archive at " + store.location() + ": " + what + " failed: " + cause.getMessage(),
                cause);
    }
}
