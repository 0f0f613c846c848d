package io.krabka.kernel.metadata;

import io.krabka.spi.common.Uuid;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.protocol.Readable;
import org.apache.kafka.common.protocol.Writable;
import org.apache.kafka.common.utils.internals.ByteUtils;

/**
 * The field encodings of Kafka's flexible metadata schemas, written and read as Kafka's generated code does: compact
 * strings and arrays (unsigned varint length + 1, 0 for null), uuids as two int64, tagged fields after the struct.
 */
final class Fields {

    private Fields() {}

    static void writeString(Writable out, String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        out.writeUnsignedVarint(bytes.length + 1);
        out.writeByteArray(bytes);
    }

    static void writeNullableString(Writable out, String value) {
        if (value == null) {
            out.writeUnsignedVarint(0);
        } else {
            writeString(out, value);
        }
    }

    static void writeBytes(Writable out, byte[] value) {
        out.writeUnsignedVarint(value.length + 1);
        out.writeByteArray(value);
    }

    static byte[] readBytes(Readable in, String field) {
        int length = in.readUnsignedVarint() - 1;
        if (length < 0) {
            throw new MetadataParseException("non-nullable field " + field + " was serialized as null");
        }
        checkRemaining(in, length, field);
        return in.readArray(length);
    }

    static void writeUuid(Writable out, Uuid id) {
        out.writeLong(id.mostSignificantBits());
        out.writeLong(id.leastSignificantBits());
    }

    static void writeInts(Writable out, List<Integer> values) {
        out.writeUnsignedVarint(values.size() + 1);
        values.forEach(out::writeInt);
    }

    static void writeUuids(Writable out, List<Uuid> values) {
        out.writeUnsignedVarint(values.size() + 1);
        values.forEach(id -> writeUuid(out, id));
    }

    /** The bytes a compact array of int32 takes, as a tagged field's size. */
    static int intsSize(List<Integer> values) {
        return ByteUtils.sizeOfUnsignedVarint(values.size() + 1) + Integer.BYTES * values.size();
    }

    /** A tagged compact int32 array: the tag, the size, the array. */
    static void writeTaggedInts(Writable out, int tag, List<Integer> values) {
        out.writeUnsignedVarint(tag);
        out.writeUnsignedVarint(intsSize(values));
        writeInts(out, values);
    }

    /** Checks a string fits Kafka's int16 length limit, with the message of Kafka's generated writer. */
    static String checkString(String value, String field) {
        if (value != null && value.getBytes(StandardCharsets.UTF_8).length > Short.MAX_VALUE) {
            throw new IllegalArgumentException("'" + field + "' field is too long to be serialized");
        }
        return value;
    }

    static String readString(Readable in, String field) {
        String value = readNullableString(in, field);
        if (value == null) {
            throw new MetadataParseException("non-nullable field " + field + " was serialized as null");
        }
        return value;
    }

    static String readNullableString(Readable in, String field) {
        int length = in.readUnsignedVarint() - 1;
        if (length < 0) {
            return null;
        }
        if (length > Short.MAX_VALUE) {
            throw new MetadataParseException("string field " + field + " had invalid length " + length);
        }
        checkRemaining(in, length, field);
        return in.readString(length);
    }

    static Uuid readUuid(Readable in) {
        checkRemaining(in, 2 * Long.BYTES, "uuid");
        return new Uuid(in.readLong(), in.readLong());
    }

    static List<Integer> readInts(Readable in, String field) {
        return readNullableInts(in, field)
                .orElseThrow(
                        () -> new MetadataParseException("non-nullable field " + field + " was serialized as null"));
    }

    static Optional<List<Integer>> readNullableInts(Readable in, String field) {
        int length = in.readUnsignedVarint() - 1;
        if (length < 0) {
            return Optional.empty();
        }
        checkRemaining(in, (long) length * Integer.BYTES, field);
        List<Integer> values = new ArrayList<>(length);
        for (int i = 0; i < length; i++) {
            values.add(in.readInt());
        }
        return Optional.of(values);
    }

    static List<Uuid> readUuids(Readable in, String field) {
        int length = in.readUnsignedVarint() - 1;
        if (length < 0) {
            throw new MetadataParseException("non-nullable field " + field + " was serialized as null");
        }
        checkRemaining(in, (long) length * 2 * Long.BYTES, field);
        List<Uuid> values = new ArrayList<>(length);
        for (int i = 0; i < length; i++) {
            values.add(readUuid(in));
        }
        return values;
    }

    /**
     * Reads the tagged fields after a struct, handing each to {@code known}; it ignores tags it does not know, as
     * Kafka's generated code sets them aside.
     */
    static void readTaggedFields(Readable in, TaggedFieldReader known) {
        int count = in.readUnsignedVarint();
        for (int i = 0; i < count; i++) {
            int tag = in.readUnsignedVarint();
            int size = in.readUnsignedVarint();
            checkRemaining(in, size, "tagged field " + tag);
            known.read(tag, in.slice());
            in.readArray(size);
        }
    }

    /** Reads the tagged-field section of a struct without any known tags. */
    static void skipTaggedFields(Readable in) {
        readTaggedFields(in, (tag, field) -> {});
    }

    static void checkRemaining(Readable in, long bytes, String field) {
        if (bytes > in.remaining()) {
            throw new MetadataParseException(
                    "field " + field + " needs " + bytes + " bytes, " + in.remaining() + " remain");
        }
    }

    /** A struct's reader of its known tagged fields. */
    @FunctionalInterface
    interface TaggedFieldReader {
        /** Reads tag {@code tag} from {@code field} (a view starting at its bytes); ignores an unknown tag. */
        void read(int tag, Readable field);
    }

    /** Checks {@code version} is one the record's schema has. */
    static void checkVersion(MetadataRecord record, short version) {
        if (version < 0 || version > record.highestSupportedVersion()) {
            throw new IllegalArgumentException(record.getClass().getSimpleName() + " has no version " + version);
        }
    }
}
