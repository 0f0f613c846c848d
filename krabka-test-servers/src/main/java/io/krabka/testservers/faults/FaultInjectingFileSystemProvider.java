package io.krabka.testservers.faults;

import java.io.IOException;
import java.net.URI;
import java.nio.channels.AsynchronousFileChannel;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.AccessMode;
import java.nio.file.CopyOption;
import java.nio.file.DirectoryStream;
import java.nio.file.FileStore;
import java.nio.file.FileSystem;
import java.nio.file.LinkOption;
import java.nio.file.OpenOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.FileAttributeView;
import java.nio.file.spi.FileSystemProvider;
import java.util.Iterator;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;

/**
 * A file system provider that serves the JDK's own file system, failing the fsyncs and writes the test asks for
 * ({@link InjectedFaults}): the faults a real disk gives only when it is failing. Installed as the default provider
 * of a process under test ({@code -Djava.nio.file.spi.DefaultFileSystemProvider}, see
 * {@link InjectedFaults#jvmOptions}), so the code under test runs unchanged, every path it makes being this file
 * system's. Everything else goes to the JDK's provider as it is.
 */
public final class FaultInjectingFileSystemProvider extends FileSystemProvider {
    private final FileSystemProvider delegate;
    private final FaultInjectingFileSystem fileSystem;
    private final InjectedFaults faults;

    /** The JDK calls this with its own default provider, which this one serves. */
    public FaultInjectingFileSystemProvider(FileSystemProvider delegate) {
        this.delegate = delegate;
        this.faults = InjectedFaults.fromSystemProperty();
        this.fileSystem = new FaultInjectingFileSystem(this, delegate.getFileSystem(URI.create("file:///")));
    }

    InjectedFaults faults() {
        return faults;
    }

    @Override
    public String getScheme() {
        return delegate.getScheme();
    }

    @Override
    public FileSystem newFileSystem(URI uri, Map<String, ?> env) throws IOException {
        return delegate.newFileSystem(uri, env);
    }

    @Override
    public FileSystem getFileSystem(URI uri) {
        return fileSystem;
    }

    @Override
    public Path getPath(URI uri) {
        return fileSystem.wrap(delegate.getPath(uri));
    }

    @Override
    public SeekableByteChannel newByteChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
            throws IOException {
        return newFileChannel(path, options, attrs);
    }

    @Override
    public FileChannel newFileChannel(Path path, Set<? extends OpenOption> options, FileAttribute<?>... attrs)
            throws IOException {
        Path file = unwrap(path);
        return new FaultInjectingFileChannel(delegate.newFileChannel(file, options, attrs), file, faults);
    }

    @Override
    public AsynchronousFileChannel newAsynchronousFileChannel(
            Path path, Set<? extends OpenOption> options, ExecutorService executor, FileAttribute<?>... attrs)
            throws IOException {
        return delegate.newAsynchronousFileChannel(unwrap(path), options, executor, attrs);
    }

    @Override
    public DirectoryStream<Path> newDirectoryStream(Path dir, DirectoryStream.Filter<? super Path> filter)
            throws IOException {
        DirectoryStream<Path> entries =
                delegate.newDirectoryStream(unwrap(dir), entry -> filter.accept(fileSystem.wrap(entry)));
        return new DirectoryStream<>() {
            @Override
            public Iterator<Path> iterator() {
                Iterator<Path> iterator = entries.iterator();
                return new Iterator<>() {
                    @Override
                    public boolean hasNext() {
                        return iterator.hasNext();
                    }

                    @Override
                    public Path next() {
                        return fileSystem.wrap(iterator.next());
                    }
                };
            }

            @Override
            public void close() throws IOException {
                entries.close();
            }
        };
    }

    @Override
    public void createDirectory(Path dir, FileAttribute<?>... attrs) throws IOException {
        delegate.createDirectory(unwrap(dir), attrs);
    }

    @Override
    public void createSymbolicLink(Path link, Path target, FileAttribute<?>... attrs) throws IOException {
        delegate.createSymbolicLink(unwrap(link), unwrap(target), attrs);
    }

    @Override
    public void createLink(Path link, Path existing) throws IOException {
        delegate.createLink(unwrap(link), unwrap(existing));
    }

    @Override
    public Path readSymbolicLink(Path link) throws IOException {
        return fileSystem.wrap(delegate.readSymbolicLink(unwrap(link)));
    }

    @Override
    public void delete(Path path) throws IOException {
        delegate.delete(unwrap(path));
    }

    @Override
    public boolean deleteIfExists(Path path) throws IOException {
        return delegate.deleteIfExists(unwrap(path));
    }

    @Override
    public void copy(Path source, Path target, CopyOption... options) throws IOException {
        delegate.copy(unwrap(source), unwrap(target), options);
    }

    @Override
    public void move(Path source, Path target, CopyOption... options) throws IOException {
        delegate.move(unwrap(source), unwrap(target), options);
    }

    @Override
    public boolean isSameFile(Path path, Path path2) throws IOException {
        return delegate.isSameFile(unwrap(path), unwrap(path2));
    }

    @Override
    public boolean isHidden(Path path) throws IOException {
        return delegate.isHidden(unwrap(path));
    }

    @Override
    public FileStore getFileStore(Path path) throws IOException {
        return delegate.getFileStore(unwrap(path));
    }

    @Override
    public void checkAccess(Path path, AccessMode... modes) throws IOException {
        delegate.checkAccess(unwrap(path), modes);
    }

    @Override
    public <V extends FileAttributeView> V getFileAttributeView(Path path, Class<V> type, LinkOption... options) {
        return delegate.getFileAttributeView(unwrap(path), type, options);
    }

    @Override
    public <A extends BasicFileAttributes> A readAttributes(Path path, Class<A> type, LinkOption... options)
            throws IOException {
        return delegate.readAttributes(unwrap(path), type, options);
    }

    @Override
    public Map<String, Object> readAttributes(Path path, String attributes, LinkOption... options) throws IOException {
        return delegate.readAttributes(unwrap(path), attributes, options);
    }

    @Override
    public void setAttribute(Path path, String attribute, Object value, LinkOption... options) throws IOException {
        delegate.setAttribute(unwrap(path), attribute, value, options);
    }

    private static Path unwrap(Path path) {
        return FaultInjectingFileSystem.unwrap(path);
    }
}
