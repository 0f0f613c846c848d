package io.krabka.kernel.group;

import io.krabka.kernel.coordinator.RecordFields;
import java.util.Objects;
import org.apache.kafka.common.protocol.Readable;
import org.apache.kafka.common.protocol.Writable;

/**
 * The key of a committed offset (Kafka's {@code OffsetCommitKey}, record type 1, or 0 for the legacy type, both
 * version 0): {@code group} (string), {@code topic} (string), {@code partition} (int32).
 *
 * @param group     the group id
 * @param topic     the topic name
 * @param partition the partition
 */
public record OffsetCommitKey(String group, String topic, int partition) {

    /** The record type Kafka writes. */
    public static final short RECORD_TYPE = 1;
    /** The legacy record type, which Kafka still reads. */
    public static final short LEGACY_RECORD_TYPE = 0;

    /** Checks the names are present. */
    public OffsetCommitKey {
        Objects.requireNonNull(group, "group");
        Objects.requireNonNull(topic, "topic");
    }

    void write(Writable out) {
        RecordFields.writeString(out, group, false);
        RecordFields.writeString(out, topic, false);
        out.writeInt(partition);
    }

    static OffsetCommitKey read(Readable in) {
        String group = RecordFields.readString(in, false, false, "group");
        String topic = RecordFields.readString(in, false, false, "topic");
        return new OffsetCommitKey(group, topic, in.readInt());
    }
}
