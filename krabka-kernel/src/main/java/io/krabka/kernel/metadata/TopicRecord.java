package io.krabka.kernel.metadata;

import io.krabka.spi.common.Uuid;
import java.util.Objects;
import org.apache.kafka.common.protocol.Readable;
import org.apache.kafka.common.protocol.Writable;

/**
 * Kafka's {@code TopicRecord} (api key 2, version 0, flexible): a topic is created. Fields: {@code Name} (compact
 * string), {@code TopicId} (uuid), then the tagged fields (none).
 *
 * @param name    the topic's name
 * @param topicId the topic's id
 */
public record TopicRecord(String name, Uuid topicId) implements MetadataRecord {

    /** The api key of the record type. */
    public static final short API_KEY = 2;

    /** Checks the fields. */
    public TopicRecord {
        Fields.checkString(Objects.requireNonNull(name, "name"), "name");
        Objects.requireNonNull(topicId, "topicId");
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
        Fields.writeString(out, name);
        Fields.writeUuid(out, topicId);
        out.writeUnsignedVarint(0);
    }

    static TopicRecord read(Readable in, short version) {
        TopicRecord record = new TopicRecord(Fields.readString(in, "name"), Fields.readUuid(in));
        Fields.skipTaggedFields(in);
        return record;
    }
}
