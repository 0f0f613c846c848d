package io.krabka.kernel.metadata;

import java.nio.ByteBuffer;
import org.apache.kafka.common.protocol.Writable;
import org.apache.kafka.common.utils.internals.ByteUtils;

/** A {@link Writable} that only counts: the size of a record is what writing it would take. */
final class SizeCounter implements Writable {

    private int size;

    /** The bytes {@code record} takes at {@code version}. */
    static int sizeOf(MetadataRecord record, short version) {
        SizeCounter counter = new SizeCounter();
        record.write(counter, version);
        return counter.size;
    }

    @Override
    public void writeByte(byte val) {
        size += Byte.BYTES;
    }

    @Override
    public void writeShort(short val) {
        size += Short.BYTES;
    }

    @Override
    public void writeInt(int val) {
        size += Integer.BYTES;
    }

    @Override
    public void writeLong(long val) {
        size += Long.BYTES;
    }

    @Override
    public void writeDouble(double val) {
        size += Double.BYTES;
    }

    @Override
    public void writeByteArray(byte[] arr) {
        size += arr.length;
    }

    @Override
    public void writeUnsignedVarint(int i) {
        size += ByteUtils.sizeOfUnsignedVarint(i);
    }

    @Override
    public void writeByteBuffer(ByteBuffer buf) {
        size += buf.remaining();
    }

    @Override
    public void writeVarint(int i) {
        size += ByteUtils.sizeOfVarint(i);
    }

    @Override
    public void writeVarlong(long i) {
        size += ByteUtils.sizeOfVarlong(i);
    }
}
