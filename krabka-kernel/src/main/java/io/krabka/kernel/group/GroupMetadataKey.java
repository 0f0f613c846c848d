package io.krabka.kernel.group;

import io.krabka.kernel.coordinator.RecordFields;
import java.util.Objects;
import org.apache.kafka.common.protocol.Readable;
import org.apache.kafka.common.protocol.Writable;

/**
 * The key of a classic group's metadata record (Kafka's {@code GroupMetadataKey}, record type 2, version 0):
 * {@code group} (string).
 *
 * @param group the group id
 */
public record GroupMetadataKey(String group) {

    /** The record type: the int16 that precedes the key. */
    public static final short RECORD_TYPE = 2;

    /** Checks the group id is present. */
    public GroupMetadataKey {
        Objects.requireNonNull(group, "group");
    }

    void write(Writable out) {
        RecordFields.writeString(out, group, false);
    }

    static GroupMetadataKey read(Readable in) {
        return new GroupMetadataKey(RecordFields.readString(in, false, false, "group"));
    }
}
