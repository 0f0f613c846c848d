package io.krabka.kernel.record;

import java.io.IOException;
import java.io.InputStream;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Walks the records of one {@link RecordBatch}, checking each record's framing as it goes: the declared size
 * against the bytes the fields take, varint lengths, negative lengths (only -1, null, is allowed for keys and
 * values; header keys may not be null), header counts, offset deltas that rise within the batch's last offset
 * delta, the declared count against the records present, and no bytes left after the last record.
 *
 * <p>Uncompressed records are read in place and nothing is allocated per record unless a caller asks for keys,
 * values, headers or a {@link Record}. Compressed records are decompressed as a stream into one reused buffer;
 * the stream is bounded, and a batch that decompresses past the bound fails with
 * {@link RecordTooLargeException} before the excess is produced. Views returned for the current record
 * ({@link #key()}, {@link #value()}) of a compressed batch are valid until the next call to {@link #next()};
 * {@link #record()} copies.
 */
public final class RecordCursor implements AutoCloseable {

    private static final int INITIAL_RECORD_BUFFER = 512;

    private final RecordBatch batch;
    private final long baseOffset;
    private final long baseTimestamp;
    private final int baseSequence;
    private final int lastOffsetDelta;
    private final boolean logAppendTime;
    private final long maxTimestamp;
    private final int count;
    private final long bound;
    private final InputStream stream;
    private ByteBuffer body;
    private int read;
    private boolean done;
    private int previousOffsetDelta = -1;
    private long streamPosition;

    private long recordPosition;
    private int recordSize;
    private byte attributes;
    private long timestamp;
    private int offsetDelta;
    private int tailPosition;
    private int tailEnd;
    private int keyPosition;
    private int keySize;
    private int valuePosition;
    private int valueSize;
    private int headersPosition;
    private int headerCount;

    RecordCursor(RecordBatch batch, long maxDecompressedBytes) {
        this.batch = batch;
        this.baseOffset = batch.baseOffset();
        this.baseTimestamp = batch.baseTimestamp();
        this.baseSequence = batch.baseSequence();
        this.lastOffsetDelta = batch.lastOffsetDelta();
        this.logAppendTime = batch.timestampType() == TimestampType.LOG_APPEND_TIME;
        this.maxTimestamp = batch.maxTimestamp();
        this.bound = maxDecompressedBytes;
        this.count = batch.recordsCount();
        if (count < 0) {
            throw new InvalidRecordException(batchAt() + ": found invalid record count " + count);
        }
        ByteBuffer records = batch.buffer().position(RecordBatch.RECORD_BATCH_OVERHEAD);
        if (batch.isCompressed()) {
            try {
                this.stream = Compression.wrapForInput(batch.compressionType(), records, RecordBatch.MAGIC, bound);
            } catch (IOException e) {
                throw streamFailure(e);
            }
            this.body = ByteBuffer.allocate(INITIAL_RECORD_BUFFER);
        } else {
            this.stream = null;
            this.body = records;
        }
    }

    /**
     * Reads the next record.
     *
     * @return false after the last record, once the batch is known to hold nothing more
     * @throws InvalidRecordException  if the framing is bad, naming the record and its byte position
     * @throws RecordTooLargeException if compressed records decompress past the bound
     * @throws CorruptRecordException  if compressed records cannot be decompressed
     */
    public boolean next() {
        if (done) {
            return false;
        }
        if (read == count) {
            ensureNoneRemaining();
            done = true;
            return false;
        }
        if (stream == null) {
            readInPlace();
        } else {
            readStreamed();
        }
        if (offsetDelta < 0 || offsetDelta <= previousOffsetDelta) {
            throw invalid("offset delta " + offsetDelta + " does not rise above the previous record's "
                    + previousOffsetDelta);
        }
        if (offsetDelta > lastOffsetDelta) {
            throw invalid("offset delta " + offsetDelta + " exceeds the batch's last offset delta " + lastOffsetDelta);
        }
        previousOffsetDelta = offsetDelta;
        read++;
        return true;
    }

    private void readInPlace() {
        int start = body.position();
        recordPosition = batch.sourcePosition() + start;
        int length;
        try {
            length = Varints.readVarint(body);
        } catch (BufferUnderflowException e) {
            throw invalid("incorrect declared batch size, premature EOF reached: the batch declares " + count
                    + " records and holds " + read);
        } catch (IllegalArgumentException e) {
            throw invalid("record length: " + e.getMessage());
        }
        if (length < 0) {
            throw invalid("record length " + length + " is negative");
        }
        if (length > body.remaining()) {
            throw invalid("invalid record size: expected " + length
                    + " bytes in record payload, but the batch has only " + body.remaining() + " remaining bytes");
        }
        int end = body.limit();
        body.limit(body.position() + length);
        parseBody(length);
        body.limit(end);
        recordSize = body.position() - start;
    }

    private void readStreamed() {
        recordPosition = streamPosition;
        try {
            int length = readStreamVarint();
            if (length < 0) {
                throw invalid("record length " + length + " is negative");
            }
            if (length > bound - streamPosition) {
                throw new RecordTooLargeException(batchAt() + ": record " + read + " declares " + length
                        + " bytes, past the bound of " + bound + " decompressed bytes");
            }
            if (body.capacity() < length) {
                body = ByteBuffer.allocate(Math.max(length, Math.min(2 * body.capacity(), (int)
                        Math.min(bound, Integer.MAX_VALUE - 8))));
            }
            body.clear().limit(length);
            int n = stream.readNBytes(body.array(), body.arrayOffset(), length);
            if (n < length) {
                throw invalid("invalid record size: expected " + length
                        + " bytes in record payload, but the record payload reached EOF");
            }
            recordSize = Varints.sizeOfVarint(length) + length;
            streamPosition += recordSize;
        } catch (IOException e) {
            throw streamFailure(e);
        }
        parseBody(body.limit());
    }

    private int readStreamVarint() throws IOException {
        int raw = 0;
        for (int shift = 0; shift < 35; shift += 7) {
            int b = stream.read();
            if (b < 0) {
                throw invalid(
                        shift == 0
                                ? "incorrect declared batch size, premature EOF reached: the batch declares " + count
                                        + " records and holds " + read
                                : "record length is cut off by the end of the stream");
            }
            raw |= (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return (raw >>> 1) ^ -(raw & 1);
            }
        }
        throw invalid("record length: varint is longer than 5 bytes");
    }

    // The body lies between the buffer's position and limit.
    private void parseBody(int length) {
        int start = body.position();
        try {
            attributes = body.get();
            long timestampDelta = Varints.readVarlong(body);
            offsetDelta = Varints.readVarint(body);
            tailPosition = body.position();
            keySize = Varints.readVarint(body);
            keyPosition = skipBytes(keySize, true, "key");
            valueSize = Varints.readVarint(body);
            valuePosition = skipBytes(valueSize, true, "value");
            headerCount = Varints.readVarint(body);
            if (headerCount < 0) {
                throw invalid("found invalid number of record headers " + headerCount);
            }
            if (headerCount > body.remaining()) {
                throw invalid("found invalid number of record headers. " + headerCount
                        + " is larger than the remaining size of the record, " + body.remaining());
            }
            headersPosition = body.position();
            for (int i = 0; i < headerCount; i++) {
                skipBytes(Varints.readVarint(body), false, "header " + i + " key");
                skipBytes(Varints.readVarint(body), true, "header " + i + " value");
            }
            tailEnd = body.position();
            timestamp = logAppendTime ? maxTimestamp : baseTimestamp + timestampDelta;
        } catch (BufferUnderflowException e) {
            throw invalid("found invalid record structure: the fields run past the declared record size " + length);
        } catch (IllegalArgumentException e) {
            throw invalid("found invalid record structure: " + e.getMessage());
        }
        if (body.position() - start != length) {
            throw invalid("invalid record size: expected to read " + length
                    + " bytes in record payload, but instead read " + (body.position() - start));
        }
    }

    private int skipBytes(int size, boolean nullable, String what) {
        int at = body.position();
        if (size < (nullable ? -1 : 0)) {
            throw invalid("invalid " + (nullable ? "" : "negative ") + what + " size " + size);
        }
        if (size > body.remaining()) {
            throw invalid(what + " of " + size + " bytes runs past the record's end (" + body.remaining() + " left)");
        }
        if (size > 0) {
            body.position(at + size);
        }
        return at;
    }

    private void ensureNoneRemaining() {
        if (stream == null) {
            if (body.hasRemaining()) {
                recordPosition = batch.sourcePosition() + body.position();
                throw invalid("incorrect declared batch size, records still remaining: " + body.remaining()
                        + " bytes follow the declared " + count + " records");
            }
            return;
        }
        try {
            recordPosition = streamPosition;
            if (stream.read() >= 0) {
                throw invalid(
                        "incorrect declared batch size, records still remaining in the decompressed stream after the"
                                + " declared " + count + " records");
            }
        } catch (IOException e) {
            throw streamFailure(e);
        }
    }

    /** The record's absolute offset. */
    public long offset() {
        return baseOffset + offsetDelta;
    }

    /** The record's offset delta. */
    public int offsetDelta() {
        return offsetDelta;
    }

    /** The record's timestamp: the batch's max timestamp for LogAppendTime batches. */
    public long timestamp() {
        return timestamp;
    }

    /** The record's producer sequence, or -1. */
    public int sequence() {
        return baseSequence < 0 ? RecordBatch.NO_SEQUENCE : RecordBatch.incrementSequence(baseSequence, offsetDelta);
    }

    /** The record's attribute byte. */
    public byte attributes() {
        return attributes;
    }

    /** Bytes of the record, its length varint included. */
    public int sizeInBytes() {
        return recordSize;
    }

    /** Whether the record has a key. */
    public boolean hasKey() {
        return keySize >= 0;
    }

    /** The key's size, or -1. */
    public int keySize() {
        return keySize;
    }

    /** The value's size, or -1. */
    public int valueSize() {
        return valueSize;
    }

    /** The number of headers. */
    public int headerCount() {
        return headerCount;
    }

    /**
     * The buffer holding the current record's fields, the batch's own for an uncompressed batch: read it with
     * absolute gets only, at {@link #keyPosition()} and {@link #tailPosition()}; valid until {@link #next()}. It
     * lets a caller hash or copy a record without allocating.
     */
    public ByteBuffer buffer() {
        return body;
    }

    /** Where the key's bytes start in {@link #buffer()}. */
    public int keyPosition() {
        return keyPosition;
    }

    /**
     * Where the record's tail starts in {@link #buffer()}: its key length, key, value length, value and headers, the
     * part of a record that re-encoding at another base timestamp leaves as it is.
     */
    public int tailPosition() {
        return tailPosition;
    }

    /** Where the record ends in {@link #buffer()}. */
    public int tailEnd() {
        return tailEnd;
    }

    /** A read-only view of the key, or null. */
    public ByteBuffer key() {
        return keySize < 0 ? null : body.slice(keyPosition, keySize).asReadOnlyBuffer();
    }

    /** A read-only view of the value, or null. */
    public ByteBuffer value() {
        return valueSize < 0 ? null : body.slice(valuePosition, valueSize).asReadOnlyBuffer();
    }

    /** The headers, decoded. */
    public List<Header> headers() {
        List<Header> headers = new ArrayList<>(headerCount);
        ByteBuffer bytes = body.duplicate().position(headersPosition);
        for (int i = 0; i < headerCount; i++) {
            int keyLength = Varints.readVarint(bytes);
            String key = StandardCharsets.UTF_8
                    .decode(bytes.slice(bytes.position(), keyLength))
                    .toString();
            bytes.position(bytes.position() + keyLength);
            int valueLength = Varints.readVarint(bytes);
            ByteBuffer value = valueLength < 0 ? null : copyIfStreamed(bytes.slice(bytes.position(), valueLength));
            bytes.position(bytes.position() + Math.max(valueLength, 0));
            headers.add(new Header(key, value));
        }
        return headers;
    }

    /** The current record as a value that outlives the cursor's buffer. */
    public Record record() {
        return new Record(
                offset(), timestamp, sequence(), attributes, copyIfStreamed(key()), copyIfStreamed(value()), headers());
    }

    private ByteBuffer copyIfStreamed(ByteBuffer view) {
        if (view == null || stream == null) {
            return view;
        }
        ByteBuffer copy = ByteBuffer.allocate(view.remaining());
        copy.put(view.duplicate()).flip();
        return copy;
    }

    @Override
    public void close() {
        if (stream != null) {
            try {
                stream.close();
            } catch (IOException e) {
                throw streamFailure(e);
            }
        }
    }

    private String batchAt() {
        return Records.at(batch.source(), batch.sourcePosition());
    }

    private InvalidRecordException invalid(String detail) {
        String where = stream == null
                ? Records.at(batch.source(), recordPosition) + " (record " + read + " of the batch at byte "
                        + batch.sourcePosition() + ")"
                : batchAt() + " (record " + read + " at decompressed byte " + recordPosition + ")";
        return new InvalidRecordException(where + ": " + detail);
    }

    private RecordException streamFailure(IOException e) {
        if (e instanceof DecompressionBoundException) {
            return new RecordTooLargeException(batchAt() + ": compressed records " + e.getMessage(), e);
        }
        return new CorruptRecordException(
                batchAt() + ": compressed records cannot be decompressed: " + e.getMessage(), e);
    }
}
