package io.krabka.kernel.metadata;

import java.nio.charset.StandardCharsets;
import java.util.Objects;
import org.apache.kafka.common.protocol.Readable;
import org.apache.kafka.common.protocol.Writable;

/**
 * Kafka's {@code FeatureLevelRecord} (api key 12, version 0, flexible): a feature finalized at a level. Fields:
 * {@code Name} (compact string), {@code FeatureLevel} (int16), then the tagged fields (none).
 *
 * @param name         the feature's name, such as {@code metadata.version}
 * @param featureLevel its level; 0 means the feature is off
 */
public record FeatureLevelRecord(String name, short featureLevel) implements MetadataRecord {

    /** The api key of the record type. */
    public static final short API_KEY = 12;

    /** Validates the name as Kafka's writer would. */
    public FeatureLevelRecord {
        Objects.requireNonNull(name, "name");
        if (name.getBytes(StandardCharsets.UTF_8).length > Short.MAX_VALUE) {
            throw new IllegalArgumentException("'name' field is too long to be serialized");
        }
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
        out.writeShort(featureLevel);
        out.writeUnsignedVarint(0);
    }

    static FeatureLevelRecord read(Readable in, short version) {
        String name = Fields.readString(in, "name");
        Fields.checkRemaining(in, Short.BYTES, "featureLevel");
        FeatureLevelRecord record = new FeatureLevelRecord(name, in.readShort());
        Fields.skipTaggedFields(in);
        return record;
    }
}
