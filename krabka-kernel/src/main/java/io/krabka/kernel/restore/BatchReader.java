package io.krabka.kernel.restore;

import io.krabka.kernel.record.RecordBatch;
import io.krabka.kernel.record.Records;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * Cuts a segment's stream into batches by their framing, one batch in memory at a time, and checks that the
 * stream's size agrees with the framing and with the size the archive declares. What the bytes of a batch say is
 * the verifier's to check; this class only decides where each batch starts and ends.
 */
final class BatchReader {

    private final InputStream in;
    private final String key;
    private final OptionalLong declaredSize;
    private final int maxBatchSize;
    // Grows to the largest batch read so far, so a segment of small batches allocates once.
    private byte[] buffer = new byte[RecordBatch.RECORD_BATCH_OVERHEAD];
    private long position;

    BatchReader(InputStream in, String key, OptionalLong declaredSize, int maxBatchSize) {
        this.in = in;
        this.key = key;
        this.declaredSize = declaredSize;
        this.maxBatchSize = maxBatchSize;
    }

    /** The bytes read so far: after {@link #next()}, the position just past the batch it returned. */
    long position() {
        return position;
    }

    /**
     * The next batch, from index 0 to its limit; the memory is reused by the next call.
     *
     * @return the batch, or null at the end of a segment whose size agrees with its declared size
     * @throws TruncatedSegmentException if the stream ends inside a batch or disagrees with the declared size
     * @throws CorruptBatchException     if the magic is not 2 or the length field cannot frame a magic 2 batch
     */
    ByteBuffer next() throws IOException, RestoreIntegrityException {
        long start = position;
        int header = read(0, RecordBatch.RECORD_BATCH_OVERHEAD);
        if (header == 0) {
            Optional<TruncatedSegmentException> mismatch = declaredSizeMismatch(start);
            if (mismatch.isPresent()) {
                throw mismatch.get();
            }
            return null;
        }
        // The magic comes first: a legacy message can be shorter than a magic 2 header, and its length is then
        // not wrong, only of another format.
        if (header >= Records.HEADER_SIZE_UP_TO_MAGIC) {
            checkMagic(start);
        }
        int size = header >= Records.LOG_OVERHEAD ? checkedSize(start) : -1;
        if (header < RecordBatch.RECORD_BATCH_OVERHEAD) {
            throw truncated(start, start + (size < 0 ? RecordBatch.RECORD_BATCH_OVERHEAD : size));
        }
        if (buffer.length < size) {
            buffer = Arrays.copyOf(buffer, size);
        }
        int body = size - RecordBatch.RECORD_BATCH_OVERHEAD;
        if (read(RecordBatch.RECORD_BATCH_OVERHEAD, body) < body) {
            throw truncated(start, start + size);
        }
        return ByteBuffer.wrap(buffer, 0, size).slice();
    }

    private void checkMagic(long start) throws CorruptBatchException {
        byte magic = buffer[Records.MAGIC_OFFSET];
        if (magic == 0 || magic == 1) {
            throw new CorruptBatchException(
                    key,
                    start,
                    CorruptBatchException.Reason.LEGACY_MAGIC,
                    "magic " + magic + " is a legacy message set; the restore reads only magic " + RecordBatch.MAGIC
                            + " batches");
        }
        if (magic != RecordBatch.MAGIC) {
            throw new CorruptBatchException(
                    key, start, CorruptBatchException.Reason.UNKNOWN_MAGIC, "magic " + magic + " is no record format");
        }
    }

    /** The whole batch's size, offset and length fields included, once its length field is checked. */
    private int checkedSize(long start) throws CorruptBatchException {
        int length = ByteBuffer.wrap(buffer).getInt(Records.SIZE_OFFSET);
        int minLength = RecordBatch.RECORD_BATCH_OVERHEAD - Records.LOG_OVERHEAD;
        if (length < minLength) {
            throw new CorruptBatchException(
                    key,
                    start,
                    CorruptBatchException.Reason.LENGTH_BELOW_HEADER,
                    "length " + length + " is below the " + minLength + " bytes of a magic 2 header");
        }
        if (length > maxBatchSize - Records.LOG_OVERHEAD) {
            throw new CorruptBatchException(
                    key,
                    start,
                    CorruptBatchException.Reason.LENGTH_ABOVE_CAP,
                    "length " + length + " makes a batch above the " + maxBatchSize + " byte cap");
        }
        return length + Records.LOG_OVERHEAD;
    }

    /** Up to {@code length} bytes into the buffer at {@code offset}, never past the declared size. */
    private int read(int offset, int length) throws IOException {
        int wanted = declaredSize.isPresent() ? (int) Math.min(length, declaredSize.getAsLong() - position) : length;
        int read = in.readNBytes(buffer, offset, wanted);
        position += read;
        return read;
    }

    /** The stream ended, or reached the declared size, inside the batch at {@code start} ending at {@code end}. */
    private TruncatedSegmentException truncated(long start, long end) throws IOException {
        return declaredSizeMismatch(start).orElseGet(() -> new TruncatedSegmentException(key, start, end, position));
    }

    /**
     * Once a read stopped short at {@link #position}: whether that disagrees with the declared size, by ending
     * before it or by the stream going on past it. Going on past it is counted to the end, so the error says how
     * large the object really is.
     */
    private Optional<TruncatedSegmentException> declaredSizeMismatch(long start) throws IOException {
        if (declaredSize.isEmpty()) {
            return Optional.empty();
        }
        long declared = declaredSize.getAsLong();
        if (position < declared) {
            return Optional.of(new TruncatedSegmentException(key, start, declared, position));
        }
        long beyond = in.transferTo(OutputStream.nullOutputStream());
        return beyond == 0
                ? Optional.empty()
                : Optional.of(new TruncatedSegmentException(key, start, declared, declared + beyond));
    }
}
