package io.krabka.kernel.record;

import java.nio.ByteBuffer;
import java.util.List;

/**
 * A batch as a log stores it: a magic 2 {@link RecordBatch} or a legacy v0/v1 {@link LegacyRecordBatch}. Both are
 * views of bytes that begin with an int64 offset and an int32 size.
 */
public sealed interface LogBatch permits RecordBatch, LegacyRecordBatch {

    /** The format version: 0, 1 or 2. */
    byte magic();

    /** The offset of the batch's last record. */
    long lastOffset();

    /** The offset after the batch's last record. */
    default long nextOffset() {
        return lastOffset() + 1;
    }

    /** Bytes in the batch, its offset and size fields included. */
    int sizeInBytes();

    /** The largest timestamp in the batch, or -1 for none. */
    long maxTimestamp();

    /** The batch's timestamp type. */
    TimestampType timestampType();

    /** The codec of the batch's records. */
    CompressionType compressionType();

    /** Whether the stored checksum matches the bytes. */
    boolean isValid();

    /**
     * Checks the stored checksum.
     *
     * @throws CorruptRecordException naming the source and byte position when it does not match
     */
    void ensureValid();

    /** The batch's bytes, from position 0 to its size: a view of the buffer it was read from. */
    ByteBuffer buffer();

    /** What the bytes came from, for error messages. */
    String source();

    /** The position of the batch's first byte in its source. */
    long sourcePosition();

    /**
     * Decodes every record, checking its framing.
     *
     * @param maxDecompressedBytes the bound on the bytes a compressed batch may decompress to
     */
    List<Record> records(long maxDecompressedBytes);
}
