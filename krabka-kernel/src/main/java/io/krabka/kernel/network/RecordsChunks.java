package io.krabka.kernel.network;

import io.krabka.kernel.log.FileSlice;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.stream.ChunkedInput;
import java.io.IOException;

/**
 * A segment file's region read in chunks, for a TLS connection where the bytes must pass through the engine and
 * sendfile cannot be used: Netty's {@code ChunkedWriteHandler} reads the next chunk only as the socket takes the last,
 * so a large Fetch response never sits in memory whole (Kafka's SSL transport copies through a buffer likewise).
 * Unlike Netty's {@code ChunkedNioFile} it never closes the channel, which belongs to the segment.
 */
final class RecordsChunks implements ChunkedInput<ByteBuf> {

    /** A TLS record carries at most 16 KiB: four of them per chunk. */
    static final int CHUNK_SIZE = 64 * 1024;

    private final FileSlice slice;
    private int position;

    RecordsChunks(FileSlice slice) {
        this.slice = slice;
    }

    @Override
    public boolean isEndOfInput() {
        return position >= slice.size();
    }

    @Override
    public void close() {}

    @Deprecated
    @Override
    public ByteBuf readChunk(ChannelHandlerContext ctx) throws IOException {
        return readChunk(ctx.alloc());
    }

    @Override
    public ByteBuf readChunk(ByteBufAllocator allocator) throws IOException {
        if (isEndOfInput()) {
            return null;
        }
        int n = Math.min(CHUNK_SIZE, slice.size() - position);
        ByteBuf chunk = allocator.directBuffer(n, n);
        try {
            int read = slice.readInto(chunk.internalNioBuffer(0, n), position);
            chunk.writerIndex(read);
            position += read;
            return chunk;
        } catch (IOException | RuntimeException e) {
            chunk.release();
            throw e;
        }
    }

    @Override
    public long length() {
        return slice.size();
    }

    @Override
    public long progress() {
        return position;
    }
}
