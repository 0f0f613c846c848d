package io.krabka.kernel.log;

import java.nio.ByteBuffer;

/** Encodes index bytes in Kafka's exact layouts, including values Kafka would never write. */
public final class IndexBytes {

    private IndexBytes() {}

    /** An offset index from (relative offset, position) pairs. */
    public static ByteBuffer offsetIndex(int... relativeOffsetAndPosition) {
        if (relativeOffsetAndPosition.length % 2 != 0) {
            throw new IllegalArgumentException("pairs of relative offset and position");
        }
        ByteBuffer buffer = ByteBuffer.allocate(relativeOffsetAndPosition.length * 4);
        for (int value : relativeOffsetAndPosition) {
            buffer.putInt(value);
        }
        return buffer.flip();
    }

    /** A time index from (timestamp, relative offset) pairs. */
    public static ByteBuffer timeIndex(long... timestampAndRelativeOffset) {
        if (timestampAndRelativeOffset.length % 2 != 0) {
            throw new IllegalArgumentException("pairs of timestamp and relative offset");
        }
        ByteBuffer buffer = ByteBuffer.allocate(timestampAndRelativeOffset.length / 2 * TimeIndex.ENTRY_SIZE);
        for (int i = 0; i < timestampAndRelativeOffset.length; i += 2) {
            buffer.putLong(timestampAndRelativeOffset[i]).putInt(Math.toIntExact(timestampAndRelativeOffset[i + 1]));
        }
        return buffer.flip();
    }

    /** A transaction index of version-0 entries. */
    public static ByteBuffer txnIndex(AbortedTxn... txns) {
        ByteBuffer buffer = ByteBuffer.allocate(txns.length * AbortedTxn.TOTAL_SIZE);
        for (AbortedTxn txn : txns) {
            putTxn(
                    buffer,
                    AbortedTxn.CURRENT_VERSION,
                    txn.producerId(),
                    txn.firstOffset(),
                    txn.lastOffset(),
                    txn.lastStableOffset());
        }
        return buffer.flip();
    }

    /** One raw transaction index entry, with any version and offsets. */
    public static ByteBuffer rawTxn(
            short version, long producerId, long firstOffset, long lastOffset, long lastStableOffset) {
        ByteBuffer buffer = ByteBuffer.allocate(AbortedTxn.TOTAL_SIZE);
        putTxn(buffer, version, producerId, firstOffset, lastOffset, lastStableOffset);
        return buffer.flip();
    }

    /** The bytes of the buffers one after another. */
    public static ByteBuffer concat(ByteBuffer... parts) {
        int size = 0;
        for (ByteBuffer part : parts) {
            size += part.remaining();
        }
        ByteBuffer all = ByteBuffer.allocate(size);
        for (ByteBuffer part : parts) {
            all.put(part.duplicate());
        }
        return all.flip();
    }

    private static void putTxn(
            ByteBuffer buffer,
            short version,
            long producerId,
            long firstOffset,
            long lastOffset,
            long lastStableOffset) {
        buffer.putShort(version)
                .putLong(producerId)
                .putLong(firstOffset)
                .putLong(lastOffset)
                .putLong(lastStableOffset);
    }
}
