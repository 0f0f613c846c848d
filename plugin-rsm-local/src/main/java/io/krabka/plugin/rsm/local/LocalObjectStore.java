package io.krabka.plugin.rsm.local;

import io.krabka.spi.objectstore.IncompleteUpload;
import io.krabka.spi.objectstore.ObjectExistsException;
import io.krabka.spi.objectstore.ObjectListing;
import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.spi.objectstore.RetentionMode;
import io.krabka.spi.objectstore.StoreProtection;
import io.krabka.spi.objectstore.StoredObject;
import io.krabka.spi.storage.RemoteResourceNotFoundException;
import io.krabka.spi.storage.RemoteStorageException;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A local directory as an {@link ObjectStore}: one file per object under {@code <dir>/kafka-tiered-storage/}, its
 * key the relative path, so that the keys of a segment under an empty prefix are exactly the files of Kafka's
 * LocalTieredStorage. A write goes to a temporary file beside its target, is forced, and is renamed into place
 * (a replacing {@link #put}) or hard-linked there (a {@link #create}, which the file system refuses atomically
 * for an existing name); the directory is forced after. A directory keeps no versions and enforces no retention.
 */
public final class LocalObjectStore implements ObjectStore {
    /** Temporary files carry this prefix; listings leave them out. */
    private static final String TEMPORARY_PREFIX = ".krabka-write-";

    private static final int PAGE_SIZE = 1000;

    private volatile Path root;
    private volatile FileSync sync;
    private volatile boolean deleteEnabled;
    private volatile boolean closed;

    /** A store to be configured, as the provider creates it. */
    public LocalObjectStore() {}

    /**
     * Takes the directory: {@code dir}, else the broker's {@code tiered.storage.dir}; it must exist. The store's root below it,
     * {@code kafka-tiered-storage/}, is made at the first write.
     *
     * @throws io.krabka.spi.plugin.ConfigException if the directory is missing, not a directory or not writable
     */
    @Override
    public void configure(Map<String, ?> configs) {
        LocalStorageConfig config = LocalStorageConfig.parse(LocalStorageConfig.STORE_KEYS, configs);
        this.sync = new FileSync(config.fsync());
        this.deleteEnabled = config.deleteEnabled();
        this.root = new LocalTieredStorageLayout(config.dir()).root();
    }

    @Override
    public String location() {
        return String.valueOf(root);
    }

    @Override
    public StoredObject put(String key, Path file) throws RemoteStorageException {
        return write(key, temporary -> Files.copy(file, temporary, StandardCopyOption.REPLACE_EXISTING), false);
    }

    @Override
    public StoredObject put(String key, ByteBuffer bytes) throws RemoteStorageException {
        return write(key, temporary -> writeBuffer(temporary, bytes), false);
    }

    @Override
    public StoredObject create(String key, Path file) throws RemoteStorageException {
        return write(key, temporary -> Files.copy(file, temporary, StandardCopyOption.REPLACE_EXISTING), true);
    }

    @Override
    public StoredObject create(String key, ByteBuffer bytes) throws RemoteStorageException {
        return write(key, temporary -> writeBuffer(temporary, bytes), true);
    }

    private StoredObject write(String key, Filler filler, boolean createOnly) throws RemoteStorageException {
        Path target = path(key);
        Path temporary = null;
        try {
            Files.createDirectories(target.getParent());
            temporary = Files.createTempFile(target.getParent(), TEMPORARY_PREFIX, ".tmp");
            filler.fill(temporary);
            long size;
            try (FileChannel channel = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
                sync.files(List.of(channel));
                size = channel.size();
            }
            if (createOnly) {
                Files.createLink(target, temporary);
                Files.delete(temporary);
            } else {
                Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            }
            temporary = null;
            sync.directory(target.getParent());
            return new StoredObject(
                    key, size, Optional.empty(), Optional.empty(), RetentionMode.NONE, Optional.empty(), createOnly);
        } catch (FileAlreadyExistsException e) {
            throw new ObjectExistsException("the object " + key + " already exists in " + location());
        } catch (IOException | UncheckedIOException e) {
            throw new RemoteStorageException("writing the object " + key + " to " + location() + " failed: " + e, e);
        } finally {
            deleteQuietly(temporary);
        }
    }

    private static void writeBuffer(Path temporary, ByteBuffer bytes) throws IOException {
        ByteBuffer view = bytes.duplicate();
        try (FileChannel channel =
                FileChannel.open(temporary, StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            while (view.hasRemaining()) {
                channel.write(view);
            }
        }
    }

    @Override
    public InputStream read(String key, Optional<String> version, long from, long toInclusive)
            throws RemoteStorageException {
        if (from < 0 || toInclusive < from) {
            throw new IllegalArgumentException("invalid range [" + from + ", " + toInclusive + "] of " + key);
        }
        Path file = existing(key, version);
        try {
            FileChannel channel = FileChannel.open(file, StandardOpenOption.READ);
            try {
                long end = Math.min(toInclusive + 1, channel.size());
                long start = Math.min(from, end);
                return new BoundedFileInputStream(channel, start, end - start);
            } catch (IOException | RuntimeException e) {
                channel.close();
                throw e;
            }
        } catch (NoSuchFileException e) {
            throw notFound(key);
        } catch (IOException e) {
            throw new RemoteStorageException("reading the object " + key + " in " + location() + " failed: " + e, e);
        }
    }

    @Override
    public InputStream read(String key, Optional<String> version) throws RemoteStorageException {
        return read(key, version, 0, Long.MAX_VALUE - 1);
    }

    @Override
    public Optional<StoredObject> head(String key, Optional<String> version) throws RemoteStorageException {
        if (version.isPresent()) {
            return Optional.empty();
        }
        Path file = path(key);
        try {
            return Optional.of(StoredObject.unprotected(key, Files.size(file)));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new RemoteStorageException("reading the size of " + key + " in " + location() + " failed: " + e, e);
        }
    }

    /** Pages of {@value #PAGE_SIZE} keys; the token is the last key of the page before. */
    @Override
    public ObjectListing list(String prefix, Optional<String> pageToken) throws RemoteStorageException {
        Path base = root();
        int slash = prefix.lastIndexOf('/');
        Path start = slash < 0 ? base : base.resolve(prefix.substring(0, slash));
        if (!start.normalize().startsWith(base) || !Files.isDirectory(start)) {
            return new ObjectListing(List.of(), Optional.empty());
        }
        try (Stream<Path> files = Files.walk(start)) {
            List<StoredObject> page = files.filter(Files::isRegularFile)
                    .filter(f -> !f.getFileName().toString().startsWith(TEMPORARY_PREFIX))
                    .map(f -> keyOf(base, f))
                    .filter(k -> k.startsWith(prefix)
                            && pageToken.map(t -> k.compareTo(t) > 0).orElse(true))
                    .sorted()
                    .limit(PAGE_SIZE + 1L)
                    .map(k -> StoredObject.unprotected(k, sizeOf(base.resolve(k))))
                    .toList();
            if (page.size() <= PAGE_SIZE) {
                return new ObjectListing(page, Optional.empty());
            }
            List<StoredObject> first = page.subList(0, PAGE_SIZE);
            return new ObjectListing(first, Optional.of(first.getLast().key()));
        } catch (IOException | UncheckedIOException e) {
            throw new RemoteStorageException("listing " + prefix + " in " + location() + " failed: " + e, e);
        }
    }

    /** A write is one rename or link: there is never a write in parts to show. */
    @Override
    public List<IncompleteUpload> incompleteUploads(String prefix) {
        root();
        return List.of();
    }

    @Override
    public StoreProtection protection() {
        return StoreProtection.none(root().toString(), "a local directory keeps no versions and enforces no retention");
    }

    /** Deletes the file and forces its directory; nothing with {@code delete.enable=false}, as Kafka's. */
    @Override
    public void delete(String key) throws RemoteStorageException {
        if (!deleteEnabled) {
            return;
        }
        Path file = path(key);
        try {
            if (Files.deleteIfExists(file)) {
                sync.directory(file.getParent());
            }
        } catch (IOException e) {
            throw new RemoteStorageException("deleting the object " + key + " in " + location() + " failed: " + e, e);
        }
    }

    /** The directory that holds the store's root exists and may be read. */
    @Override
    public void checkAccess() throws RemoteStorageException {
        Path parent = root().getParent();
        if (!Files.isDirectory(parent) || !Files.isReadable(parent)) {
            throw new RemoteStorageException("the directory " + parent + " does not exist or cannot be read");
        }
    }

    @Override
    public void close() {
        // Nothing is held open between calls; streams already opened stay readable.
        closed = true;
    }

    @Override
    public String toString() {
        return "LocalObjectStore[" + root + "]";
    }

    private Path existing(String key, Optional<String> version) throws RemoteResourceNotFoundException {
        if (version.isPresent()) {
            throw new RemoteResourceNotFoundException("the object " + key + " in " + location() + " has no version "
                    + version.get() + ": a directory keeps no versions");
        }
        return path(key);
    }

    private RemoteResourceNotFoundException notFound(String key) {
        return new RemoteResourceNotFoundException("no object " + key + " in " + location());
    }

    /**
     * The file of a key.
     *
     * @throws IllegalArgumentException for a key that is empty, absolute, or has an empty, {@code .} or
     *                                  {@code ..} segment: it could name a file outside the store
     */
    private Path path(String key) {
        Objects.requireNonNull(key, "key");
        for (String segment : key.split("/", -1)) {
            if (segment.isEmpty()
                    || segment.equals(".")
                    || segment.equals("..")
                    || segment.contains("\\")
                    || segment.startsWith(TEMPORARY_PREFIX)) {
                throw new IllegalArgumentException("not an object key of a local store: \"" + key + "\"");
            }
        }
        return root().resolve(key);
    }

    /** The root of a configured store that is not closed; every call but {@link #location()} goes through it. */
    private Path root() {
        if (closed) {
            throw new IllegalStateException("the local object store is closed");
        }
        Path r = root;
        if (r == null) {
            throw new IllegalStateException("the local object store is not configured");
        }
        return r;
    }

    private static String keyOf(Path base, Path file) {
        return base.relativize(file).toString().replace(file.getFileSystem().getSeparator(), "/");
    }

    private static long sizeOf(Path file) {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteQuietly(Path temporary) {
        if (temporary != null) {
            try {
                Files.deleteIfExists(temporary);
            } catch (IOException ignored) {
                // A leftover temporary file is never listed and never read.
            }
        }
    }

    @FunctionalInterface
    private interface Filler {
        void fill(Path temporary) throws IOException;
    }
}
