package io.krabka.testservers.faults;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.ReadableByteChannel;
import java.nio.channels.WritableByteChannel;
import java.nio.file.Path;

/**
 * The JDK's file channel, its writes and fsyncs failing where {@link InjectedFaults} says. A transfer to or from
 * another such channel goes between the JDK's channels, so sendfile and copy_file_range still serve it. A memory
 * mapping is the JDK's own: neither its writes nor its force can be failed here.
 */
final class FaultInjectingFileChannel extends FileChannel {
    private final FileChannel delegate;
    private final Path file;
    private final InjectedFaults faults;

    FaultInjectingFileChannel(FileChannel delegate, Path file, InjectedFaults faults) {
        this.delegate = delegate;
        this.file = file;
        this.faults = faults;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        return delegate.read(dst);
    }

    @Override
    public long read(ByteBuffer[] dsts, int offset, int length) throws IOException {
        return delegate.read(dsts, offset, length);
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        faults.checkWrite(file);
        return delegate.write(src);
    }

    @Override
    public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
        faults.checkWrite(file);
        return delegate.write(srcs, offset, length);
    }

    @Override
    public long position() throws IOException {
        return delegate.position();
    }

    @Override
    public FileChannel position(long newPosition) throws IOException {
        delegate.position(newPosition);
        return this;
    }

    @Override
    public long size() throws IOException {
        return delegate.size();
    }

    @Override
    public FileChannel truncate(long size) throws IOException {
        delegate.truncate(size);
        return this;
    }

    @Override
    public void force(boolean metaData) throws IOException {
        faults.checkFsync(file);
        delegate.force(metaData);
    }

    @Override
    public long transferTo(long position, long count, WritableByteChannel target) throws IOException {
        return delegate.transferTo(position, count, unwrap(target));
    }

    @Override
    public long transferFrom(ReadableByteChannel src, long position, long count) throws IOException {
        faults.checkWrite(file);
        return delegate.transferFrom(
                src instanceof FaultInjectingFileChannel channel ? channel.delegate : src, position, count);
    }

    @Override
    public int read(ByteBuffer dst, long position) throws IOException {
        return delegate.read(dst, position);
    }

    @Override
    public int write(ByteBuffer src, long position) throws IOException {
        faults.checkWrite(file);
        return delegate.write(src, position);
    }

    @Override
    public MappedByteBuffer map(MapMode mode, long position, long size) throws IOException {
        return delegate.map(mode, position, size);
    }

    @Override
    public MemorySegment map(MapMode mode, long offset, long size, Arena arena) throws IOException {
        return delegate.map(mode, offset, size, arena);
    }

    @Override
    public FileLock lock(long position, long size, boolean shared) throws IOException {
        return delegate.lock(position, size, shared);
    }

    @Override
    public FileLock tryLock(long position, long size, boolean shared) throws IOException {
        return delegate.tryLock(position, size, shared);
    }

    @Override
    protected void implCloseChannel() throws IOException {
        delegate.close();
    }

    private static WritableByteChannel unwrap(WritableByteChannel target) {
        return target instanceof FaultInjectingFileChannel channel ? channel.delegate : target;
    }
}
