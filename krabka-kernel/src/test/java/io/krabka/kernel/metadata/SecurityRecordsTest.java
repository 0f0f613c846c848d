package io.krabka.kernel.metadata;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.krabka.spi.common.Uuid;
import java.nio.ByteBuffer;
import java.util.Map;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.metadata.AccessControlEntryRecord;
import org.apache.kafka.common.metadata.RemoveAccessControlEntryRecord;
import org.apache.kafka.common.metadata.RemoveUserScramCredentialRecord;
import org.apache.kafka.common.metadata.UserScramCredentialRecord;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.metadata.MetadataRecordSerde;
import org.apache.kafka.server.common.ApiMessageAndVersion;
import org.junit.jupiter.api.Test;

/**
 * Kafka 4.4's generated ACL and SCRAM records judge Krabka's: the framed bytes are Kafka's, each side reads the
 * other's; replayed, they make the ACL and SCRAM images.
 */
class SecurityRecordsTest {

    private static final Uuid ACL_ID = Uuid.fromString("fM8RA2ptTOqMCj6wFHNEQw");
    private static final StandardAcl ACL = new StandardAcl(
            ResourceType.TOPIC,
            "orders-",
            PatternType.PREFIXED,
            "User:alice",
            "10.0.0.7",
            AclOperation.WRITE,
            AclPermissionType.DENY);
    private static final ScramCredentialData CREDENTIAL =
            new ScramCredentialData(new byte[] {1, 2, 3}, new byte[32], new byte[] {9, 8}, 8192);

    @Test
    void aclRecordsAreKafkas() {
        for (ResourceType type : new ResourceType[] {
            ResourceType.TOPIC,
            ResourceType.GROUP,
            ResourceType.CLUSTER,
            ResourceType.TRANSACTIONAL_ID,
            ResourceType.DELEGATION_TOKEN,
            ResourceType.USER
        }) {
            StandardAcl acl = new StandardAcl(
                    type, "n\u00e4me", PatternType.LITERAL, "User:*", "*", AclOperation.ALL, AclPermissionType.ALLOW);
            judge(new io.krabka.kernel.metadata.AccessControlEntryRecord(ACL_ID, acl), kafka(ACL_ID, acl));
        }
        judge(new io.krabka.kernel.metadata.AccessControlEntryRecord(ACL_ID, ACL), kafka(ACL_ID, ACL));
        judge(
                new io.krabka.kernel.metadata.RemoveAccessControlEntryRecord(ACL_ID),
                new RemoveAccessControlEntryRecord().setId(kafka(ACL_ID)));
    }

    @Test
    void scramRecordsAreKafkas() {
        for (ScramMechanism mechanism :
                new ScramMechanism[] {ScramMechanism.SCRAM_SHA_256, ScramMechanism.SCRAM_SHA_512}) {
            judge(
                    new io.krabka.kernel.metadata.UserScramCredentialRecord("alice", mechanism.type(), CREDENTIAL),
                    new UserScramCredentialRecord()
                            .setName("alice")
                            .setMechanism(mechanism.type())
                            .setSalt(CREDENTIAL.salt())
                            .setStoredKey(CREDENTIAL.storedKey())
                            .setServerKey(CREDENTIAL.serverKey())
                            .setIterations(CREDENTIAL.iterations()));
            judge(
                    new io.krabka.kernel.metadata.RemoveUserScramCredentialRecord("alice", mechanism.type()),
                    new RemoveUserScramCredentialRecord().setName("alice").setMechanism(mechanism.type()));
        }
    }

    @Test
    void replayedRecordsMakeTheAclAndScramImages() {
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        delta.replay(new io.krabka.kernel.metadata.AccessControlEntryRecord(ACL_ID, ACL));
        delta.replay(new io.krabka.kernel.metadata.UserScramCredentialRecord(
                "alice", ScramMechanism.SCRAM_SHA_256.type(), CREDENTIAL));
        delta.replay(new io.krabka.kernel.metadata.UserScramCredentialRecord(
                "alice", ScramMechanism.SCRAM_SHA_512.type(), CREDENTIAL));
        MetadataImage image = delta.apply(3);
        assertEquals(Map.of(ACL_ID, ACL), image.acls().acls());
        assertArrayEquals(
                CREDENTIAL.storedKey(),
                image.scram()
                        .credential("alice", ScramMechanism.SCRAM_SHA_256)
                        .orElseThrow()
                        .storedKey());

        MetadataDelta next = new MetadataDelta(image);
        next.replay(new io.krabka.kernel.metadata.RemoveAccessControlEntryRecord(ACL_ID));
        next.replay(new io.krabka.kernel.metadata.RemoveUserScramCredentialRecord(
                "alice", ScramMechanism.SCRAM_SHA_256.type()));
        MetadataImage after = next.apply(5);
        assertEquals(Map.of(), after.acls().acls());
        assertEquals(java.util.Optional.empty(), after.scram().credential("alice", ScramMechanism.SCRAM_SHA_256));
        assertEquals(
                CREDENTIAL,
                after.scram().credential("alice", ScramMechanism.SCRAM_SHA_512).orElseThrow());
        // The base image is unchanged.
        assertEquals(Map.of(ACL_ID, ACL), image.acls().acls());

        MetadataDelta bad = new MetadataDelta(after);
        assertThrows(
                MetadataParseException.class,
                () -> bad.replay(new io.krabka.kernel.metadata.RemoveAccessControlEntryRecord(ACL_ID)));
        bad.replay(new io.krabka.kernel.metadata.AccessControlEntryRecord(ACL_ID, ACL));
        assertThrows(
                MetadataParseException.class,
                () -> bad.replay(new io.krabka.kernel.metadata.AccessControlEntryRecord(ACL_ID, ACL)));
    }

    private static AccessControlEntryRecord kafka(Uuid id, StandardAcl acl) {
        return new AccessControlEntryRecord()
                .setId(kafka(id))
                .setResourceType(acl.resourceType().code())
                .setResourceName(acl.resourceName())
                .setPatternType(acl.patternType().code())
                .setPrincipal(acl.principal())
                .setHost(acl.host())
                .setOperation(acl.operation().code())
                .setPermissionType(acl.permissionType().code());
    }

    /** Krabka's framed bytes equal Kafka's; each side reads the other's. */
    private static void judge(MetadataRecord ours, ApiMessage kafka) {
        short version = 0;
        MetadataRecordSerde serde = new MetadataRecordSerde();
        ApiMessageAndVersion framed = new ApiMessageAndVersion(kafka, version);
        ObjectSerializationCache cache = new ObjectSerializationCache();
        ByteBuffer theirs = ByteBuffer.allocate(serde.recordSize(framed, cache));
        serde.write(framed, cache, new ByteBufferAccessor(theirs));
        theirs.flip();
        ByteBuffer mine = io.krabka.kernel.metadata.MetadataRecordSerde.serialize(ours, version);
        assertEquals(theirs, mine, ours.toString());
        assertEquals(framed, serde.read(new ByteBufferAccessor(mine.duplicate()), mine.remaining()));
        assertEquals(
                new MetadataRecordAndVersion(ours, version),
                io.krabka.kernel.metadata.MetadataRecordSerde.read(theirs));
    }

    private static org.apache.kafka.common.Uuid kafka(Uuid id) {
        return new org.apache.kafka.common.Uuid(id.mostSignificantBits(), id.leastSignificantBits());
    }
}
