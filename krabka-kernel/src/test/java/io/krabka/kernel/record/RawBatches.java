package io.krabka.kernel.record;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;

/** Hand-framed batches and records, for bytes no correct writer produces. */
final class RawBatches {

    static final long TIMESTAMP = 1_700_000_000_000L;

    private RawBatches() {}

    /** A magic 2 batch at offset 0 with the given header counts and records section, and a correct CRC. */
    static ByteBuffer batch(int attributes, int lastOffsetDelta, int count, byte[] records) {
        ByteBuffer b = ByteBuffer.allocate(RecordBatch.RECORD_BATCH_OVERHEAD + records.length);
        b.putLong(0, 0)
                .putInt(8, RecordBatch.RECORD_BATCH_OVERHEAD - Records.LOG_OVERHEAD + records.length)
                .putInt(12, -1)
                .put(16, (byte) 2)
                .putShort(21, (short) attributes)
                .putInt(23, lastOffsetDelta)
                .putLong(27, TIMESTAMP)
                .putLong(35, TIMESTAMP)
                .putLong(43, -1)
                .putShort(51, (short) -1)
                .putInt(53, -1)
                .putInt(57, count)
                .put(61, records);
        return fixCrc(b);
    }

    /** Recomputes the CRC so that only framing checks can reject the bytes. */
    static ByteBuffer fixCrc(ByteBuffer batch) {
        batch.putInt(RecordBatch.CRC_OFFSET, (int) new RecordBatch(batch.duplicate(), "raw", 0).computeChecksum());
        return batch;
    }

    /** {@code records} compressed as one stream, as a batch holds them. */
    static byte[] compress(CompressionType type, byte[] records) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (OutputStream stream = Compression.of(type).wrapForOutput(out, (byte) 2)) {
            stream.write(records);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** Concatenates byte arrays. */
    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] part : parts) {
            out.writeBytes(part);
        }
        return out.toByteArray();
    }

    /** A record's body fields, written one by one; {@link #framed()} prefixes the true length. */
    static final class RecordBytes {
        private final ByteBuffer body = ByteBuffer.allocate(1 << 16);

        RecordBytes attributes(int attributes) {
            body.put((byte) attributes);
            return this;
        }

        RecordBytes varint(int value) {
            Varints.writeVarint(value, body);
            return this;
        }

        RecordBytes varlong(long value) {
            Varints.writeVarlong(value, body);
            return this;
        }

        RecordBytes raw(byte... bytes) {
            body.put(bytes);
            return this;
        }

        /** A well-formed record: attributes 0, the deltas, key, value, no headers. */
        static RecordBytes simple(int offsetDelta, String key, String value) {
            RecordBytes r = new RecordBytes().attributes(0).varlong(offsetDelta).varint(offsetDelta);
            r.bytes(key).bytes(value);
            return r.varint(0);
        }

        RecordBytes bytes(String s) {
            if (s == null) {
                return varint(-1);
            }
            byte[] b = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            return varint(b.length).raw(b);
        }

        byte[] body() {
            byte[] bytes = new byte[body.position()];
            body.duplicate().flip().get(bytes);
            return bytes;
        }

        /** The body with its true length in front. */
        byte[] framed() {
            return withLength(body().length);
        }

        /** The body with any length in front. */
        byte[] withLength(int length) {
            ByteBuffer prefix = ByteBuffer.allocate(5);
            Varints.writeVarint(length, prefix);
            return concat(java.util.Arrays.copyOf(prefix.array(), prefix.position()), body());
        }
    }
}
