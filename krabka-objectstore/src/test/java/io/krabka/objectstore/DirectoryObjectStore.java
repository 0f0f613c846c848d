package io.krabka.objectstore;

import io.krabka.spi.storage.RemoteResourceNotFoundException;
import io.krabka.spi.storage.RemoteStorageException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.Channels;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/**
 * An object store in a directory, for tests: one file per object, its key the relative path. Writes go to a
 * temporary name and are renamed, so an object is whole or absent, as in a real store.
 */
final class DirectoryObjectStore implements ObjectStore {
    private final Path root;

    DirectoryObjectStore(Path root) {
        this.root = root;
    }

    @Override
    public void upload(String key, Path file) throws RemoteStorageException {
        try (InputStream in = Files.newInputStream(file)) {
            publish(key, in);
        } catch (IOException e) {
            throw new RemoteStorageException("upload of " + key + " from " + file + " failed: " + e, e);
        }
    }

    @Override
    public void upload(String key, ByteBuffer bytes) throws RemoteStorageException {
        ByteBuffer copy = bytes.duplicate();
        byte[] content = new byte[copy.remaining()];
        copy.get(content);
        try {
            publish(key, new ByteArrayInputStream(content));
        } catch (IOException e) {
            throw new RemoteStorageException("upload of " + key + " failed: " + e, e);
        }
    }

    private void publish(String key, InputStream in) throws IOException {
        Path target = path(key);
        Files.createDirectories(target.getParent());
        Path temporary = Files.createTempFile(target.getParent(), ".upload-", ".tmp");
        try (OutputStream out = Files.newOutputStream(temporary)) {
            in.transferTo(out);
        } catch (IOException e) {
            Files.deleteIfExists(temporary);
            throw e;
        }
        Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    @Override
    public InputStream read(String key, long from, long toInclusive) throws RemoteStorageException {
        if (from < 0 || toInclusive < from) {
            throw new IllegalArgumentException("invalid range [" + from + ", " + toInclusive + "] of " + key);
        }
        try {
            FileChannel channel = FileChannel.open(path(key), StandardOpenOption.READ);
            long end = Math.min(toInclusive, channel.size() - 1);
            long length = Math.max(0, end - from + 1);
            channel.position(from);
            return new BoundedInputStream(Channels.newInputStream(channel), length);
        } catch (NoSuchFileException e) {
            throw new RemoteResourceNotFoundException("no object " + key, e);
        } catch (IOException e) {
            throw new RemoteStorageException("read of " + key + " failed: " + e, e);
        }
    }

    @Override
    public InputStream read(String key) throws RemoteStorageException {
        return read(key, 0, Long.MAX_VALUE);
    }

    @Override
    public void delete(String key) throws RemoteStorageException {
        try {
            Files.deleteIfExists(path(key));
        } catch (IOException e) {
            throw new RemoteStorageException("delete of " + key + " failed: " + e, e);
        }
    }

    @Override
    public List<String> list(String prefix) throws RemoteStorageException {
        if (!Files.isDirectory(root)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(root)) {
            List<String> keys = new ArrayList<>();
            files.filter(Files::isRegularFile)
                    .map(p -> root.relativize(p).toString().replace('\\', '/'))
                    .filter(k -> k.startsWith(prefix) && !k.endsWith(".tmp"))
                    .sorted()
                    .forEach(keys::add);
            return keys;
        } catch (IOException e) {
            throw new RemoteStorageException("list of " + prefix + " failed: " + e, e);
        }
    }

    @Override
    public void checkAccess() throws RemoteStorageException {
        if (!Files.isDirectory(root)) {
            throw new RemoteStorageException("bucket directory " + root + " does not exist (checkAccess)");
        }
    }

    @Override
    public void close() {
    }

    private Path path(String key) {
        Path path = root.resolve(key).normalize();
        if (!path.startsWith(root) || key.startsWith("/")) {
            throw new IllegalArgumentException("key outside the store: " + key);
        }
        return path;
    }

    /** The first {@code length} bytes of a stream. */
    private static final class BoundedInputStream extends InputStream {
        private final InputStream in;
        private long remaining;

        BoundedInputStream(InputStream in, long remaining) {
            this.in = in;
            this.remaining = remaining;
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (remaining <= 0) {
                return len == 0 ? 0 : -1;
            }
            int n = in.read(b, off, (int) Math.min(len, remaining));
            if (n > 0) {
                remaining -= n;
            }
            return n;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
