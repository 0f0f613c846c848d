package io.krabka.kernel.record;

import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * Batches laid end to end in a buffer, as Kafka's {@code MemoryRecords}: iteration yields views that share the
 * buffer's bytes, stops silently at a truncated trailing batch (a partial write or a fetch cut at its size
 * limit), and fails with {@link CorruptRecordException} on a size or magic that cannot be right.
 */
public final class MemoryRecords implements Iterable<LogBatch> {

    private final ByteBuffer buffer;
    private final String source;
    private final long sourcePosition;

    private MemoryRecords(ByteBuffer buffer, String source, long sourcePosition) {
        this.buffer = buffer.slice();
        this.source = Objects.requireNonNull(source, "source");
        this.sourcePosition = sourcePosition;
    }

    /**
     * The batches in {@code buffer} from its position to its limit; the buffer is not moved.
     *
     * @param source         what the bytes came from, for error messages
     * @param sourcePosition where the buffer's position lies in the source
     */
    public static MemoryRecords readableRecords(ByteBuffer buffer, String source, long sourcePosition) {
        return new MemoryRecords(buffer, source, sourcePosition);
    }

    /** The bytes, from position 0 to the end. */
    public ByteBuffer buffer() {
        return buffer.duplicate();
    }

    /** Bytes held, a truncated tail included. */
    public int sizeInBytes() {
        return buffer.limit();
    }

    /** Bytes of the complete batches at the front: where a truncated tail begins. */
    public int validBytes() {
        int position = 0;
        for (LogBatch batch : this) {
            position += batch.sizeInBytes();
        }
        return position;
    }

    @Override
    public Iterator<LogBatch> iterator() {
        return new Iterator<>() {
            private int position;
            private LogBatch next;

            @Override
            public boolean hasNext() {
                if (next == null) {
                    int size = Records.nextBatchSize(
                            buffer, position, source, sourcePosition + position, Integer.MAX_VALUE);
                    if (size < 0 || size > buffer.limit() - position) {
                        return false;
                    }
                    next = Records.batchAt(buffer, position, source, sourcePosition + position);
                    position += size;
                }
                return true;
            }

            @Override
            public LogBatch next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                LogBatch batch = next;
                next = null;
                return batch;
            }
        };
    }
}
