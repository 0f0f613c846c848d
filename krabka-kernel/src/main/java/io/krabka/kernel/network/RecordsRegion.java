package io.krabka.kernel.network;

import io.krabka.kernel.log.FileSlice;
import io.netty.channel.FileRegion;
import io.netty.util.AbstractReferenceCounted;
import java.io.IOException;
import java.nio.channels.WritableByteChannel;

/**
 * A segment file's region as a Netty {@link FileRegion}: sent with {@code FileChannel.transferTo}, sendfile where
 * the socket is a JDK channel. Unlike Netty's {@code DefaultFileRegion} it never closes the channel, which belongs
 * to the segment and is shared by every fetch.
 */
final class RecordsRegion extends AbstractReferenceCounted implements FileRegion {

    private final FileSlice slice;
    private long transferred;

    RecordsRegion(FileSlice slice) {
        this.slice = slice;
    }

    @Override
    public long position() {
        return slice.start();
    }

    @Override
    public long count() {
        return slice.size();
    }

    @Override
    public long transferred() {
        return transferred;
    }

    @Deprecated
    @Override
    public long transfered() {
        return transferred;
    }

    /** Writes from {@code position} (relative to the region, as Netty passes it) as much as the socket takes. */
    @Override
    public long transferTo(WritableByteChannel target, long position) throws IOException {
        long written = slice.transferTo(target, position, slice.size() - position);
        transferred += written;
        return written;
    }

    @Override
    public FileRegion retain() {
        super.retain();
        return this;
    }

    @Override
    public FileRegion retain(int increment) {
        super.retain(increment);
        return this;
    }

    @Override
    public FileRegion touch() {
        return this;
    }

    @Override
    public FileRegion touch(Object hint) {
        return this;
    }

    /** The region read in chunks, for a connection that cannot take a file region (TLS). */
    RecordsChunks chunks() {
        return new RecordsChunks(slice);
    }

    /** Nothing to free: the segment owns the channel. */
    @Override
    protected void deallocate() {}
}
