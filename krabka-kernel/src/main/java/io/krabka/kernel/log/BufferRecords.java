package io.krabka.kernel.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

/**
 * Batches in memory, for reads that answer with no bytes or with bytes from elsewhere.
 *
 * @param buffer the bytes from position 0 to the limit; never modified
 */
public record BufferRecords(ByteBuffer buffer) implements FetchRecords {

    /** No bytes: Kafka's {@code MemoryRecords.EMPTY}. */
    public static final BufferRecords EMPTY = new BufferRecords(ByteBuffer.allocate(0));

    /** Takes a read-only view of the bytes from the buffer's position to its limit. */
    public BufferRecords {
        buffer = buffer.slice().asReadOnlyBuffer();
    }

    @Override
    public ByteBuffer buffer() {
        return buffer.duplicate();
    }

    @Override
    public int sizeInBytes() {
        return buffer.limit();
    }

    @Override
    public long transferTo(WritableByteChannel target, long position, long count) throws IOException {
        FileSlice.checkRange(position, count, sizeInBytes());
        int n = (int) Math.min(count, sizeInBytes() - position);
        return target.write(buffer.slice((int) position, n));
    }

    @Override
    public int readInto(ByteBuffer target, int position) {
        FileSlice.checkRange(position, 0, sizeInBytes());
        int n = Math.min(target.remaining(), sizeInBytes() - position);
        target.put(buffer.slice(position, n));
        return n;
    }
}
