package io.krabka.kernel.metadata;

import java.util.Objects;
import org.apache.kafka.common.protocol.Readable;
import org.apache.kafka.common.protocol.Writable;

/**
 * Kafka's {@code ConfigRecord} (api key 4, version 0, flexible): a dynamic config is set or, with a null value,
 * removed. Fields: {@code ResourceType} (int8: 2 topic, 4 broker, 32 group), {@code ResourceName} (compact string;
 * "" for the cluster-wide broker default), {@code Name} (compact string), {@code Value} (compact nullable string), then the
 * tagged fields (none).
 *
 * @param resourceType the resource type's id, as Kafka's {@code ConfigResource.Type}
 * @param resourceName the resource's name
 * @param name         the config key
 * @param value        its new value; null removes it
 */
public record ConfigRecord(byte resourceType, String resourceName, String name, String value)
        implements MetadataRecord {

    /** The api key of the record type. */
    public static final short API_KEY = 4;
    /** Kafka's id of a topic resource. */
    public static final byte TOPIC = 2;
    /** Kafka's id of a broker resource. */
    public static final byte BROKER = 4;
    /** Kafka's id of a group resource. */
    public static final byte GROUP = 32;

    /** Checks the fields. */
    public ConfigRecord {
        Fields.checkString(Objects.requireNonNull(resourceName, "resourceName"), "resourceName");
        Fields.checkString(Objects.requireNonNull(name, "name"), "name");
        Fields.checkString(value, "value");
    }

    @Override
    public short apiKey() {
        return API_KEY;
    }

    @Override
    public short highestSupportedVersion() {
        return 0;
    }

    @Override
    public void write(Writable out, short version) {
        Fields.checkVersion(this, version);
        out.writeByte(resourceType);
        Fields.writeString(out, resourceName);
        Fields.writeString(out, name);
        Fields.writeNullableString(out, value);
        out.writeUnsignedVarint(0);
    }

    static ConfigRecord read(Readable in, short version) {
        Fields.checkRemaining(in, 1, "resourceType");
        ConfigRecord record = new ConfigRecord(
                in.readByte(),
                Fields.readString(in, "resourceName"),
                Fields.readString(in, "name"),
                Fields.readNullableString(in, "value"));
        Fields.skipTaggedFields(in);
        return record;
    }
}
