package io.krabka.kernel.network;

import io.krabka.kernel.log.BufferRecords;
import io.krabka.kernel.log.FileSlice;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.util.ReferenceCountUtil;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.common.protocol.Writable;
import org.apache.kafka.common.record.internal.BaseRecords;
import org.apache.kafka.common.record.internal.MemoryRecords;

/**
 * A {@link Writable} that writes a response into one buffer and cuts it at every records field: a {@link FileSlice}
 * goes out as a {@link RecordsRegion}, records in memory as a buffer wrapping their bytes, neither copied. The
 * pieces, in order, are the response's bytes; the buffer holds exactly what kafka-clients sizes as not zero-copy.
 */
final class ByteBufWritable implements Writable {

    private final ByteBuf buffer;
    private final List<Object> pieces = new ArrayList<>();
    private int cut;
    private long zeroCopyBytes;

    /** Writes into {@code buffer}, which this writer then owns. */
    ByteBufWritable(ByteBuf buffer) {
        this.buffer = buffer;
    }

    @Override
    public void writeByte(byte val) {
        buffer.writeByte(val);
    }

    @Override
    public void writeShort(short val) {
        buffer.writeShort(val);
    }

    @Override
    public void writeInt(int val) {
        buffer.writeInt(val);
    }

    @Override
    public void writeLong(long val) {
        buffer.writeLong(val);
    }

    @Override
    public void writeDouble(double val) {
        buffer.writeDouble(val);
    }

    @Override
    public void writeByteArray(byte[] arr) {
        buffer.writeBytes(arr);
    }

    @Override
    public void writeUnsignedVarint(int i) {
        int value = i;
        while ((value & 0xffffff80) != 0) {
            buffer.writeByte((value & 0x7f) | 0x80);
            value >>>= 7;
        }
        buffer.writeByte(value);
    }

    @Override
    public void writeByteBuffer(ByteBuffer buf) {
        buffer.writeBytes(buf.duplicate());
    }

    @Override
    public void writeVarint(int i) {
        writeUnsignedVarint((i << 1) ^ (i >> 31));
    }

    @Override
    public void writeVarlong(long i) {
        long value = (i << 1) ^ (i >> 63);
        while ((value & 0xffffffffffffff80L) != 0L) {
            buffer.writeByte(((int) value & 0x7f) | 0x80);
            value >>>= 7;
        }
        buffer.writeByte((int) value);
    }

    /** Cuts the buffer and adds the records as their own piece. */
    @Override
    public void writeRecords(BaseRecords records) {
        Object piece = switch (records) {
            case WireRecords(FileSlice slice) -> new RecordsRegion(slice);
            case WireRecords(BufferRecords bytes) -> Unpooled.wrappedBuffer(bytes.buffer());
            case MemoryRecords memory -> Unpooled.wrappedBuffer(memory.buffer());
            default -> throw new UnsupportedOperationException("Unsupported record type " + records.getClass());
        };
        cutHere();
        pieces.add(piece);
        zeroCopyBytes += records.sizeInBytes();
    }

    private void cutHere() {
        if (buffer.writerIndex() > cut) {
            pieces.add(buffer.retainedSlice(cut, buffer.writerIndex() - cut));
            cut = buffer.writerIndex();
        }
    }

    /** The bytes written: the buffer and file regions to write in order. The writer must not be used again. */
    List<Object> finish() {
        if (pieces.isEmpty()) {
            return List.of(buffer);
        }
        cutHere();
        buffer.release();
        return List.copyOf(pieces);
    }

    /** Frees what was written, after a failure. */
    void discard() {
        pieces.forEach(ReferenceCountUtil::release);
        buffer.release();
    }

    /** The number of bytes written to the buffer so far. */
    int bytesWritten() {
        return buffer.writerIndex();
    }

    /** The number of bytes in records pieces so far. */
    long zeroCopyBytes() {
        return zeroCopyBytes;
    }
}
