package io.krabka.kernel.network;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import io.netty.buffer.ByteBuf;
import io.netty.util.ReferenceCountUtil;

import org.apache.kafka.common.protocol.Writable;
import org.apache.kafka.common.record.internal.BaseRecords;

import io.krabka.kernel.log.BufferRecords;
import io.krabka.kernel.log.FileSlice;

/**
 * A {@link Writable} that writes a response into one buffer and cuts it at every {@link FileSlice}, which goes out
 * as a {@link RecordsRegion}: the pieces, in order, are the response's bytes.
 */
final class ByteBufWritable implements Writable {

    private final ByteBuf buffer;
    private final List<Object> pieces = new ArrayList<>();
    private int cut;

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

    /** Writes records in memory as bytes and a segment file's region as a region to send from the file. */
    @Override
    public void writeRecords(BaseRecords records) {
        if (!(records instanceof WireRecords(var fetched))) {
            Writable.super.writeRecords(records);
            return;
        }
        switch (fetched) {
            case BufferRecords bytes -> buffer.writeBytes(bytes.buffer());
            case FileSlice slice -> {
                cutHere();
                pieces.add(new RecordsRegion(slice));
            }
        }
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
}
