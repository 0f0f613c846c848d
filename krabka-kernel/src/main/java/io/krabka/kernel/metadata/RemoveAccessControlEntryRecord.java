package io.krabka.kernel.metadata;

import io.krabka.spi.common.Uuid;
import java.util.Objects;
import org.apache.kafka.common.protocol.Readable;
import org.apache.kafka.common.protocol.Writable;

/**
 * Kafka's {@code RemoveAccessControlEntryRecord} (api key 19, version 0, flexible): an ACL is removed. Fields:
 * {@code Id} (uuid), then the tagged fields (none).
 *
 * @param id the removed ACL's id
 */
public record RemoveAccessControlEntryRecord(Uuid id) implements MetadataRecord {

    /** The api key of the record type. */
    public static final short API_KEY = 19;

    /** Checks the id is present. */
    public RemoveAccessControlEntryRecord {
        Objects.requireNonNull(id, "id");
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
        Fields.writeUuid(out, id);
        out.writeUnsignedVarint(0);
    }

    static RemoveAccessControlEntryRecord read(Readable in, short version) {
        RemoveAccessControlEntryRecord record = new RemoveAccessControlEntryRecord(Fields.readUuid(in));
        Fields.skipTaggedFields(in);
        return record;
    }
}
