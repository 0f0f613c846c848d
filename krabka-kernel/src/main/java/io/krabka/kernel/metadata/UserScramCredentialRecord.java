package io.krabka.kernel.metadata;

import java.util.Objects;
import org.apache.kafka.common.protocol.Readable;
import org.apache.kafka.common.protocol.Writable;

/**
 * Kafka's {@code UserScramCredentialRecord} (api key 11, version 0, flexible): a user's SCRAM credential for one
 * mechanism is set. Fields: {@code Name} (compact string), {@code Mechanism} (int8: 1 SCRAM-SHA-256, 2 SCRAM-SHA-512),
 * {@code Salt}, {@code StoredKey}, {@code ServerKey} (compact bytes), {@code Iterations} (int32), then the tagged
 * fields (none).
 *
 * @param name       the user
 * @param mechanism  the mechanism's type, as kafka-clients' {@code ScramMechanism}
 * @param credential the salt, keys and iterations
 */
public record UserScramCredentialRecord(String name, byte mechanism, ScramCredentialData credential)
        implements MetadataRecord {

    /** The api key of the record type. */
    public static final short API_KEY = 11;

    /** Checks the fields. */
    public UserScramCredentialRecord {
        Fields.checkString(Objects.requireNonNull(name, "name"), "name");
        Objects.requireNonNull(credential, "credential");
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
        Fields.writeBytes(out, credential.salt());
        Fields.writeBytes(out, credential.storedKey());
        Fields.writeBytes(out, credential.serverKey());
        out.writeInt(credential.iterations());
        out.writeUnsignedVarint(0);
    }

    static UserScramCredentialRecord read(Readable in, short version) {
        String name = Fields.readString(in, "name");
        Fields.checkRemaining(in, 1, "mechanism");
        byte mechanism = in.readByte();
        byte[] salt = Fields.readBytes(in, "salt");
        byte[] storedKey = Fields.readBytes(in, "storedKey");
        byte[] serverKey = Fields.readBytes(in, "serverKey");
        Fields.checkRemaining(in, Integer.BYTES, "iterations");
        int iterations = in.readInt();
        Fields.skipTaggedFields(in);
        return new UserScramCredentialRecord(
                name, mechanism, new ScramCredentialData(salt, storedKey, serverKey, iterations));
    }
}
