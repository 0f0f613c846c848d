package io.krabka.plugin.rlmm.topic;

import io.krabka.spi.common.Uuid;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import org.apache.kafka.common.protocol.Readable;
import org.apache.kafka.common.protocol.Writable;

/**
 * The field encodings of Kafka's flexible message versions, which every {@code __remote_log_metadata} record uses
 * ({@code "flexibleVersions": "0+"}): compact strings and bytes (length plus one as an unsigned varint, 0 for
 * null), compact arrays, uuids as two big-endian longs, and a tagged-field section closing every struct.
 */
final class FlexibleFields {

    private FlexibleFields() {}

    static void writeString(Writable out, String value) {
        byte[] bytes = value.getBytes(StandardCharsets.UTF_8);
        out.writeUnsignedVarint(bytes.length + 1);
        out.writeByteArray(bytes);
    }

    static String readString(Readable in, String field) {
        int length = in.readUnsignedVarint() - 1;
        if (length < 0) {
            throw new MetadataRecordException(field + " is null, which its schema does not allow");
        }
        return in.readString(length);
    }

    static void writeNullableBytes(Writable out, Optional<byte[]> value) {
        if (value.isEmpty()) {
            out.writeUnsignedVarint(0);
        } else {
            out.writeUnsignedVarint(value.get().length + 1);
            out.writeByteArray(value.get());
        }
    }

    static Optional<byte[]> readNullableBytes(Readable in) {
        int length = in.readUnsignedVarint() - 1;
        return length < 0 ? Optional.empty() : Optional.of(in.readArray(length));
    }

    static void writeUuid(Writable out, Uuid value) {
        out.writeLong(value.mostSignificantBits());
        out.writeLong(value.leastSignificantBits());
    }

    static Uuid readUuid(Readable in) {
        return new Uuid(in.readLong(), in.readLong());
    }

    /** The element count of a compact array; a null array is refused, as no field here allows one. */
    static int readArrayLength(Readable in, String field) {
        int length = in.readUnsignedVarint() - 1;
        if (length < 0) {
            throw new MetadataRecordException(field + " is null, which its schema does not allow");
        }
        return length;
    }

    /** A struct's tagged-field section with no fields in it. */
    static void writeNoTaggedFields(Writable out) {
        out.writeUnsignedVarint(0);
    }

    /** A struct's tagged-field section holding at most the boolean {@code tag 0} when it is true. */
    static void writeTaggedTrueFlag(Writable out, boolean flag) {
        if (!flag) {
            writeNoTaggedFields(out);
            return;
        }
        out.writeUnsignedVarint(1);
        out.writeUnsignedVarint(0);
        out.writeUnsignedVarint(1);
        out.writeByte((byte) 1);
    }

    /**
     * Reads a tagged-field section, returning the boolean {@code tag 0} (false when absent) and skipping any tag
     * this version does not know, as Kafka's generated readers keep unknown tags rather than refuse them.
     */
    static boolean readTaggedFlag(Readable in) {
        boolean flag = false;
        int count = in.readUnsignedVarint();
        for (int i = 0; i < count; i++) {
            int tag = in.readUnsignedVarint();
            int size = in.readUnsignedVarint();
            if (tag == 0) {
                if (size != 1) {
                    throw new MetadataRecordException("tagged field 0 is " + size + " bytes, not a boolean");
                }
                flag = in.readByte() != 0;
            } else {
                in.readArray(size);
            }
        }
        return flag;
    }

    /** Reads a tagged-field section of a struct that defines no tagged field, skipping whatever it holds. */
    static void skipTaggedFields(Readable in) {
        int count = in.readUnsignedVarint();
        for (int i = 0; i < count; i++) {
            in.readUnsignedVarint();
            in.readArray(in.readUnsignedVarint());
        }
    }
}
