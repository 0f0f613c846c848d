package io.krabka.kernel.metadata;

import io.krabka.spi.common.Uuid;
import java.util.Objects;
import org.apache.kafka.common.protocol.Readable;
import org.apache.kafka.common.protocol.Writable;

/**
 * Kafka's {@code RemoveTopicRecord} (api key 9, version 0, flexible): a topic and its partitions are deleted.
 * Fields: {@code TopicId} (uuid), then the tagged fields (none).
 *
 * @param topicId the deleted topic's id
 */
public record RemoveTopicRecord(Uuid topicId) implements MetadataRecord {

    /** The api key of the record type. */
    public static final short API_KEY = 9;

    /** Checks the id is present. */
    public RemoveTopicRecord {
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
        Fields.writeUuid(out, topicId);
        out.writeUnsignedVarint(0);
    }

    static RemoveTopicRecord read(Readable in, short version) {
        RemoveTopicRecord record = new RemoveTopicRecord(Fields.readUuid(in));
        Fields.skipTaggedFields(in);
        return record;
    }
}
