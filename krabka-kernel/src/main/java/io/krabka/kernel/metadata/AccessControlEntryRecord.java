package io.krabka.kernel.metadata;

import io.krabka.spi.common.Uuid;
import java.util.Objects;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.protocol.Readable;
import org.apache.kafka.common.protocol.Writable;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;

/**
 * Kafka's {@code AccessControlEntryRecord} (api key 18, version 0, flexible): an ACL is added. Fields: {@code Id}
 * (uuid), {@code ResourceType} (int8), {@code ResourceName} (compact string), {@code PatternType} (int8),
 * {@code Principal}, {@code Host} (compact strings), {@code Operation}, {@code PermissionType} (int8, kafka-clients'
 * codes), then the tagged fields (none).
 *
 * @param id  the ACL's id, which its removal names
 * @param acl the ACL
 */
public record AccessControlEntryRecord(Uuid id, StandardAcl acl) implements MetadataRecord {

    /** The api key of the record type. */
    public static final short API_KEY = 18;

    /** Checks the fields. */
    public AccessControlEntryRecord {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(acl, "acl");
        Fields.checkString(acl.resourceName(), "resourceName");
        Fields.checkString(acl.principal(), "principal");
        Fields.checkString(acl.host(), "host");
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
        out.writeByte(acl.resourceType().code());
        Fields.writeString(out, acl.resourceName());
        out.writeByte(acl.patternType().code());
        Fields.writeString(out, acl.principal());
        Fields.writeString(out, acl.host());
        out.writeByte(acl.operation().code());
        out.writeByte(acl.permissionType().code());
        out.writeUnsignedVarint(0);
    }

    static AccessControlEntryRecord read(Readable in, short version) {
        Uuid id = Fields.readUuid(in);
        Fields.checkRemaining(in, 1, "resourceType");
        ResourceType resourceType = ResourceType.fromCode(in.readByte());
        String resourceName = Fields.readString(in, "resourceName");
        Fields.checkRemaining(in, 1, "patternType");
        PatternType patternType = PatternType.fromCode(in.readByte());
        String principal = Fields.readString(in, "principal");
        String host = Fields.readString(in, "host");
        Fields.checkRemaining(in, 2, "operation");
        AclOperation operation = AclOperation.fromCode(in.readByte());
        AclPermissionType permissionType = AclPermissionType.fromCode(in.readByte());
        Fields.skipTaggedFields(in);
        return new AccessControlEntryRecord(
                id,
                new StandardAcl(resourceType, resourceName, patternType, principal, host, operation, permissionType));
    }
}
