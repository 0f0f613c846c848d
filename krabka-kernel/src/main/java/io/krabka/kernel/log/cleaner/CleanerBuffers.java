package io.krabka.kernel.log.cleaner;

import io.krabka.kernel.log.FileRecords;
import io.krabka.kernel.record.ByteBufferOutputStream;
import io.krabka.kernel.record.CorruptRecordException;
import io.krabka.kernel.record.MemoryRecords;
import io.krabka.kernel.record.Records;
import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * A cleaner thread's read and write buffers, allocated once and reused chunk after chunk, as Kafka's
 * {@code Cleaner} keeps them: each of {@code log.cleaner.io.buffer.size} / threads / 2 bytes, the read buffer
 * doubled (up to the larger of {@code message.max.bytes} and the batch met) when a batch does not fit, and both
 * put back to their size after each segment. The write buffer also grows when a rebuilt batch needs it.
 */
final class CleanerBuffers {

    private final int ioBufferSize;
    private final int maxIoBufferSize;
    private final ByteBufferOutputStream writeBuffer;
    private ByteBuffer readBuffer;

    /**
     * @param ioBufferSize    the size of each buffer
     * @param maxIoBufferSize {@code message.max.bytes}: the size the buffers grow to for a batch of a topic that
     *                        allows less
     */
    CleanerBuffers(int ioBufferSize, int maxIoBufferSize) {
        this.ioBufferSize = ioBufferSize;
        this.maxIoBufferSize = maxIoBufferSize;
        this.readBuffer = ByteBuffer.allocate(ioBufferSize);
        this.writeBuffer = new ByteBufferOutputStream(ioBufferSize);
    }

    /**
     * Reads what the read buffer holds from {@code position} of {@code source}.
     *
     * @return the batches read, the last one possibly cut off
     */
    MemoryRecords read(FileRecords source, int position) throws IOException {
        readBuffer.clear();
        source.readInto(readBuffer, position);
        return MemoryRecords.readableRecords(readBuffer.flip(), source.file().toString(), position);
    }

    /** The write buffer, cleared. */
    ByteBufferOutputStream clearedWriteBuffer() {
        writeBuffer.clear();
        return writeBuffer;
    }

    /** The read buffer's size. */
    int readCapacity() {
        return readBuffer.capacity();
    }

    /**
     * Grows the read buffer when not one whole batch could be read at {@code position}, as Kafka's
     * {@code growBuffersOrFail}: to {@code maxLogMessageSize}, or past it to the batch's size, which the segment
     * must hold.
     *
     * @throws CorruptRecordException if the batch's size runs past the segment's end
     * @throws IllegalStateException  if the batch is larger than the buffers may grow, or its size is not readable
     */
    void growOrFail(FileRecords source, int position, int maxLogMessageSize, MemoryRecords records) throws IOException {
        int maxSize;
        if (readBuffer.capacity() >= maxLogMessageSize) {
            String where = "log segment " + source.file() + " at position " + position;
            ByteBuffer bytes = records.buffer();
            int nextBatchSize = Records.nextBatchSize(bytes, 0, source.file().toString(), position, Integer.MAX_VALUE);
            if (nextBatchSize < 0) {
                throw new IllegalStateException("Could not determine next batch size for " + where);
            }
            if (nextBatchSize <= readBuffer.capacity()) {
                throw new IllegalStateException("Batch size " + nextBatchSize + " < buffer size "
                        + readBuffer.capacity() + ", but not processed for " + where);
            }
            long bytesLeft = source.channel().size() - position;
            if (nextBatchSize > bytesLeft) {
                throw new CorruptRecordException("Log segment may be corrupt, batch size " + nextBatchSize + " > "
                        + bytesLeft + " bytes left in segment for " + where);
            }
            maxSize = nextBatchSize;
        } else {
            maxSize = maxLogMessageSize;
        }
        int maxBufferSize = Math.max(maxSize, maxIoBufferSize);
        if (readBuffer.capacity() >= maxBufferSize) {
            throw new IllegalStateException(
                    "This log contains a message larger than maximum allowable size of " + maxBufferSize + ".");
        }
        readBuffer = ByteBuffer.allocate((int) Math.min(2L * readBuffer.capacity(), maxBufferSize));
    }

    /** Puts both buffers back to their size. */
    void restore() {
        if (readBuffer.capacity() > ioBufferSize) {
            readBuffer = ByteBuffer.allocate(ioBufferSize);
        }
        writeBuffer.reset(ioBufferSize);
    }
}
