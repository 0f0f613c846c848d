package io.krabka.kernel.metadata;

import java.util.Objects;
import org.apache.kafka.common.protocol.Readable;
import org.apache.kafka.common.protocol.Writable;

/**
 * Kafka's {@code RemoveUserScramCredentialRecord} (api key 22, version 0, flexible): a user's SCRAM credential for
 * one mechanism is removed. Fields: {@code Name} (compact string), {@code Mechanism} (int8), then the tagged fields
 * (none).
 *
 * @param name      the user
 * @param mechanism the mechanism's type, as kafka-clients' {@code ScramMechanism}
 */
public record RemoveUserScramCredentialRecord(String name, byte mechanism) implements MetadataRecord {

    /** The api key of the record type. */
    public static final short API_KEY = 22;

    /** Checks the fields. */
    public RemoveUserScramCredentialRecord {
        Fields.checkString(Objects.requireNonNull(name, "name"), "name");
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
        out.writeByte(mechanism);
        out.writeUnsignedVarint(0);
    }

    static RemoveUserScramCredentialRecord read(Readable in, short version) {
        String name = Fields.readString(in, "name");
        Fields.checkRemaining(in, 1, "mechanism");
        RemoveUserScramCredentialRecord record = new RemoveUserScramCredentialRecord(name, in.readByte());
        Fields.skipTaggedFields(in);
        return record;
    }
}
