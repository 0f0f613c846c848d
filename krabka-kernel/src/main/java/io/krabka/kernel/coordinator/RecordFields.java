package io.krabka.kernel.coordinator;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.function.Consumer;
import org.apache.kafka.common.protocol.DataOutputStreamWritable;
import org.apache.kafka.common.protocol.Readable;
import org.apache.kafka.common.protocol.Writable;

/**
 * Kafka's primitive field encodings, as its generated message classes write them: strings and bytes with an int16 or
 * int32 length (-1 for null), or, in flexible versions, an unsigned varint of length + 1 (0 for null).
 */
public final class RecordFields {

    private RecordFields() {}

    /** The bytes {@code writer} writes. */
    public static byte[] bytes(Consumer<Writable> writer) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
        DataOutputStream stream = new DataOutputStream(bytes);
        writer.accept(new DataOutputStreamWritable(stream));
        try {
            stream.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    /** Writes a string, null as -1 (or 0 when compact). */
    public static void writeString(Writable out, String value, boolean compact) {
        if (value == null) {
            if (compact) {
                out.writeUnsignedVarint(0);
            } else {
                out.writeShort((short) -1);
            }
            return;
        }
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        if (bytes.length > Short.MAX_VALUE) {
            throw new IllegalArgumentException("a string of " + bytes.length + " bytes is too long to be serialized");
        }
        if (compact) {
            out.writeUnsignedVarint(bytes.length + 1);
        } else {
            out.writeShort((short) bytes.length);
        }
        out.writeByteArray(bytes);
    }

    /** Reads a string; null only where {@code nullable}. */
    public static String readString(Readable in, boolean compact, boolean nullable, String field) {
        int length = compact ? in.readUnsignedVarint() - 1 : in.readShort();
        if (length < 0) {
            if (!nullable) {
                throw new CoordinatorRecordException("non-nullable field " + field + " was serialized as null");
            }
            return null;
        }
        checkRemaining(in, length, field);
        return in.readString(length);
    }

    /** Writes non-null bytes. */
    public static void writeBytes(Writable out, byte[] value, boolean compact) {
        if (compact) {
            out.writeUnsignedVarint(value.length + 1);
        } else {
            out.writeInt(value.length);
        }
        out.writeByteArray(value);
    }

    /** Reads non-null bytes. */
    public static byte[] readBytes(Readable in, boolean compact, String field) {
        int length = compact ? in.readUnsignedVarint() - 1 : in.readInt();
        if (length < 0) {
            throw new CoordinatorRecordException("non-nullable field " + field + " was serialized as null");
        }
        checkRemaining(in, length, field);
        return in.readArray(length);
    }

    /** Writes the length of a non-null array. */
    public static void writeArrayLength(Writable out, int length, boolean compact) {
        if (compact) {
            out.writeUnsignedVarint(length + 1);
        } else {
            out.writeInt(length);
        }
    }

    /** Reads the length of a non-null array, refusing one longer than the bytes left. */
    public static int readArrayLength(Readable in, boolean compact, String field) {
        int length = compact ? in.readUnsignedVarint() - 1 : in.readInt();
        if (length < 0) {
            throw new CoordinatorRecordException("non-nullable field " + field + " was serialized as null");
        }
        // Each element takes at least a byte: a length beyond the bytes left is corrupt, not a huge allocation.
        checkRemaining(in, length, field);
        return length;
    }

    /** Skips the tagged fields of a flexible struct, calling {@code known} for the tags the caller reads. */
    public static void readTaggedFields(Readable in, TagReader known) {
        int count = in.readUnsignedVarint();
        for (int i = 0; i < count; i++) {
            int tag = in.readUnsignedVarint();
            int size = in.readUnsignedVarint();
            checkRemaining(in, size, "tag " + tag);
            if (!known.read(tag, size, in)) {
                in.readArray(size);
            }
        }
    }

    private static void checkRemaining(Readable in, int length, String field) {
        if (length > in.remaining()) {
            throw new CoordinatorRecordException(
                    "field " + field + " of " + length + " bytes exceeds the " + in.remaining() + " bytes left");
        }
    }

    /** Reads a known tagged field; returns false for a tag it does not know, which is then skipped. */
    @FunctionalInterface
    public interface TagReader {
        boolean read(int tag, int size, Readable in);
    }
}
