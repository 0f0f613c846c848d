package io.krabka.kernel.log;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.WritableByteChannel;

/**
 * The batches a read returns, as bytes to send: Kafka's {@code Records} in a {@code FetchDataInfo}. A
 * {@link FileSlice} is a region of a segment file sent without copying; {@link BufferRecords} are bytes in memory.
 */
public sealed interface FetchRecords permits FileSlice, BufferRecords {

    /** The number of bytes. */
    int sizeInBytes();

    /**
     * Writes up to {@code count} bytes from {@code position} (relative to the start of these records) to
     * {@code target} in one call, as Netty's {@code FileRegion.transferTo} expects: the caller calls again with the
     * position moved on until every byte is sent.
     *
     * @return the number of bytes written, possibly fewer than asked
     * @throws IllegalArgumentException if {@code position} is outside the records or {@code count} is negative
     */
    long transferTo(WritableByteChannel target, long position, long count) throws IOException;

    /**
     * Copies bytes from {@code position} (relative to the start of these records) into {@code buffer}: as many as
     * the buffer has room for or the records hold. The buffer's position moves past them.
     *
     * @return the number of bytes copied
     * @throws IllegalArgumentException if {@code position} is outside the records
     */
    int readInto(ByteBuffer buffer, int position) throws IOException;
}
