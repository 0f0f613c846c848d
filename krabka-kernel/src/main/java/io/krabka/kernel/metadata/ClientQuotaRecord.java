package io.krabka.kernel.metadata;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.common.protocol.Readable;
import org.apache.kafka.common.protocol.Writable;
import org.apache.kafka.common.quota.ClientQuotaEntity;

/**
 * Kafka's {@code ClientQuotaRecord} (api key 14, version 0, flexible): a quota of a client entity is set or removed.
 * Fields: {@code Entity} (compact array of {@code EntityType} (compact string), {@code EntityName} (compact nullable
 * string, null for the type's default), each with its tagged fields (none)), {@code Key} (compact string),
 * {@code Value} (float64), {@code Remove} (bool), then the tagged fields (none). The entity's parts keep the order
 * they were read in, so the record is written back as Kafka wrote it.
 *
 * @param entity the entity's parts, in the record's order
 * @param key    the quota's key, such as {@code producer_byte_rate}
 * @param value  the quota's value; ignored when {@code remove}
 * @param remove whether the key is removed from the entity rather than set
 */
public record ClientQuotaRecord(List<EntityData> entity, String key, double value, boolean remove)
        implements MetadataRecord {

    /** The api key of the record type. */
    public static final short API_KEY = 14;

    /**
     * One part of an entity.
     *
     * @param entityType the type: {@code user}, {@code client-id} or {@code ip}
     * @param entityName the name; null for the type's default
     */
    public record EntityData(String entityType, String entityName) {
        /** Checks the fields. */
        public EntityData {
            Fields.checkString(Objects.requireNonNull(entityType, "entityType"), "entityType");
            Fields.checkString(entityName, "entityName");
        }
    }

    /** Checks the fields and copies the entity. */
    public ClientQuotaRecord {
        entity = List.copyOf(entity);
        Fields.checkString(Objects.requireNonNull(key, "key"), "key");
    }

    /** The entity as Kafka's controller reads it: each type to its name (null: the default), the last part winning. */
    public ClientQuotaEntity quotaEntity() {
        Map<String, String> entries = new HashMap<>();
        entity.forEach(part -> entries.put(part.entityType(), part.entityName()));
        return new ClientQuotaEntity(Collections.unmodifiableMap(entries));
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
        out.writeUnsignedVarint(entity.size() + 1);
        for (EntityData part : entity) {
            Fields.writeString(out, part.entityType());
            Fields.writeNullableString(out, part.entityName());
            out.writeUnsignedVarint(0);
        }
        Fields.writeString(out, key);
        out.writeDouble(value);
        out.writeByte(remove ? (byte) 1 : (byte) 0);
        out.writeUnsignedVarint(0);
    }

    static ClientQuotaRecord read(Readable in, short version) {
        int length = in.readUnsignedVarint() - 1;
        if (length < 0) {
            throw new MetadataParseException("non-nullable field entity was serialized as null");
        }
        // Each part takes at least three bytes: the lengths of its strings and its tagged fields' count.
        Fields.checkRemaining(in, 3L * length, "entity");
        List<EntityData> entity = new ArrayList<>(length);
        for (int i = 0; i < length; i++) {
            String entityType = Fields.readString(in, "entityType");
            String entityName = Fields.readNullableString(in, "entityName");
            Fields.skipTaggedFields(in);
            entity.add(new EntityData(entityType, entityName));
        }
        String key = Fields.readString(in, "key");
        Fields.checkRemaining(in, Double.BYTES + 1, "value");
        double value = in.readDouble();
        boolean remove = in.readByte() != 0;
        Fields.skipTaggedFields(in);
        return new ClientQuotaRecord(entity, key, value, remove);
    }
}
