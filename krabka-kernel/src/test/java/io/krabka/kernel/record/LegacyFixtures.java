package io.krabka.kernel.record;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/**
 * v0/v1 entries encoded from the documented layout, since Kafka 4.4 no longer writes them: int64 offset, int32
 * size, then CRC-32 (over magic..end), magic, attributes, [int64 timestamp for v1], int32 key length + key, int32
 * value length + value.
 */
final class LegacyFixtures {

    private LegacyFixtures() {}

    /** A message; null key or value are written as length -1. */
    static byte[] message(byte magic, int attributes, long timestamp, String key, String value) {
        return message(magic, attributes, timestamp, bytes(key), bytes(value));
    }

    static byte[] message(byte magic, int attributes, long timestamp, byte[] key, byte[] value) {
        int size = (magic == 0 ? 14 : 22) + (key == null ? 0 : key.length) + (value == null ? 0 : value.length);
        ByteBuffer b = ByteBuffer.allocate(size);
        b.position(4).put(magic).put((byte) attributes);
        if (magic == 1) {
            b.putLong(timestamp);
        }
        putBytes(b, key);
        putBytes(b, value);
        CRC32 crc = new CRC32();
        crc.update(b.array(), 4, size - 4);
        b.putInt(0, (int) crc.getValue());
        return b.array();
    }

    /** An entry: offset, size, message. */
    static ByteBuffer entry(long offset, byte[] message) {
        return ByteBuffer.allocate(12 + message.length)
                .putLong(offset)
                .putInt(message.length)
                .put(message)
                .flip();
    }

    /** A compressed wrapper whose value is the inner entries compressed with {@code codec}. */
    static byte[] wrapper(
            byte magic, CompressionType codec, boolean logAppendTime, long timestamp, ByteBuffer... inner) {
        ByteArrayOutputStream compressed = new ByteArrayOutputStream();
        try (OutputStream out = Compression.of(codec).wrapForOutput(compressed, magic)) {
            for (ByteBuffer entry : inner) {
                out.write(Kafka.bytes(entry));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        int attributes = codec.id() | (logAppendTime ? 0x08 : 0);
        return message(magic, attributes, timestamp, null, compressed.toByteArray());
    }

    static ByteBuffer concat(ByteBuffer... entries) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (ByteBuffer entry : entries) {
            out.writeBytes(Kafka.bytes(entry));
        }
        return ByteBuffer.wrap(out.toByteArray());
    }

    private static byte[] bytes(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    private static void putBytes(ByteBuffer b, byte[] bytes) {
        if (bytes == null) {
            b.putInt(-1);
        } else {
            b.putInt(bytes.length).put(bytes);
        }
    }
}
