package io.krabka.kernel.record;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;

/**
 * Zig-zag varints as Kafka's record format writes them (protobuf's encoding): at most 5 bytes for an int, 10 for a
 * long. Reads throw {@link IllegalArgumentException} for a varint that runs past its length and
 * {@link BufferUnderflowException} at the end of the bytes; callers turn both into typed errors with positions.
 */
final class Varints {

    private Varints() {}

    static int readVarint(ByteBuffer buffer) {
        int raw = 0;
        for (int shift = 0; shift < 35; shift += 7) {
            byte b = buffer.get();
            raw |= (b & 0x7F) << shift;
            if (b >= 0) {
                return (raw >>> 1) ^ -(raw & 1);
            }
        }
        throw new IllegalArgumentException("varint is longer than 5 bytes");
    }

    static long readVarlong(ByteBuffer buffer) {
        long raw = 0;
        for (int shift = 0; shift < 70; shift += 7) {
            byte b = buffer.get();
            raw |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                return (raw >>> 1) ^ -(raw & 1);
            }
        }
        throw new IllegalArgumentException("varlong is longer than 10 bytes");
    }

    static void writeVarint(int value, ByteBuffer buffer) {
        int v = (value << 1) ^ (value >> 31);
        while ((v & 0xFFFFFF80) != 0) {
            buffer.put((byte) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        buffer.put((byte) v);
    }

    static void writeVarlong(long value, ByteBuffer buffer) {
        long v = (value << 1) ^ (value >> 63);
        while ((v & 0xFFFFFFFFFFFFFF80L) != 0) {
            buffer.put((byte) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        buffer.put((byte) v);
    }

    static int sizeOfVarint(int value) {
        int v = (value << 1) ^ (value >> 31);
        int bytes = 1;
        while ((v & 0xFFFFFF80) != 0) {
            bytes++;
            v >>>= 7;
        }
        return bytes;
    }

    static int sizeOfVarlong(long value) {
        long v = (value << 1) ^ (value >> 63);
        int bytes = 1;
        while ((v & 0xFFFFFFFFFFFFFF80L) != 0) {
            bytes++;
            v >>>= 7;
        }
        return bytes;
    }
}
