package io.krabka.kernel.restore.metadata;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.record.LogBatch;
import io.krabka.kernel.record.MemoryRecords;
import io.krabka.kernel.restore.MetadataDisagreementException;
import io.krabka.kernel.restore.bound.InvalidRestoreArgumentException;
import io.krabka.kernel.restore.report.MetadataRestoreReport;
import io.krabka.spi.common.Uuid;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.metadata.AccessControlEntryRecord;
import org.apache.kafka.common.metadata.ClientQuotaRecord;
import org.apache.kafka.common.metadata.ConfigRecord;
import org.apache.kafka.common.metadata.FeatureLevelRecord;
import org.apache.kafka.common.metadata.PartitionRecord;
import org.apache.kafka.common.metadata.ProducerIdsRecord;
import org.apache.kafka.common.metadata.RegisterBrokerRecord;
import org.apache.kafka.common.metadata.TopicRecord;
import org.apache.kafka.common.metadata.UserScramCredentialRecord;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourceType;
import org.apache.kafka.server.common.ApiMessageAndVersion;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A cluster's metadata snapshot written by Kafka's own snapshot writer, read for the restore. */
class ClusterMetadataSnapshotTest {
    private static final Uuid ORDERS = Uuid.randomUuid();
    private static final Uuid EVENTS = Uuid.randomUuid();
    private static final byte TOPIC = 2;
    private static final byte BROKER = 4;

    @TempDir
    Path dir;

    private Path file;

    @BeforeEach
    void writeSnapshot() {
        file = KafkaClusterSnapshot.write(
                dir,
                List.of(
                        List.of(
                                record(new FeatureLevelRecord()
                                        .setName("metadata.version")
                                        .setFeatureLevel((short) 27)),
                                record(new FeatureLevelRecord()
                                        .setName("group.version")
                                        .setFeatureLevel((short) 1)),
                                record(
                                        new RegisterBrokerRecord()
                                                .setBrokerId(1)
                                                .setBrokerEpoch(7)
                                                .setIncarnationId(org.apache.kafka.common.Uuid.randomUuid())
                                                .setRack(null),
                                        3),
                                record(new ProducerIdsRecord()
                                        .setBrokerId(1)
                                        .setBrokerEpoch(7)
                                        .setNextProducerId(5000))),
                        List.of(
                                record(new TopicRecord().setName("orders").setTopicId(kafka(ORDERS))),
                                record(
                                        new PartitionRecord()
                                                .setTopicId(kafka(ORDERS))
                                                .setPartitionId(0)
                                                .setReplicas(List.of(1))
                                                .setIsr(List.of(1))
                                                .setLeader(1),
                                        2),
                                record(new TopicRecord().setName("events").setTopicId(kafka(EVENTS)))),
                        List.of(
                                config(TOPIC, "orders", "retention.ms", "86400000"),
                                config(TOPIC, "orders", "cleanup.policy", "compact"),
                                config(TOPIC, "events", "max.message.bytes", "2097152"),
                                config(TOPIC, "gone", "retention.ms", "1"),
                                config(BROKER, "", "log.retention.hours", "24")),
                        List.of(
                                record(new AccessControlEntryRecord()
                                        .setId(org.apache.kafka.common.Uuid.randomUuid())
                                        .setResourceType(ResourceType.TOPIC.code())
                                        .setResourceName("orders")
                                        .setPatternType(PatternType.LITERAL.code())
                                        .setPrincipal("User:alice")
                                        .setHost("*")
                                        .setOperation(AclOperation.READ.code())
                                        .setPermissionType(AclPermissionType.ALLOW.code())),
                                record(new AccessControlEntryRecord()
                                        .setId(org.apache.kafka.common.Uuid.randomUuid())
                                        .setResourceType(ResourceType.GROUP.code())
                                        .setResourceName("*")
                                        .setPatternType(PatternType.LITERAL.code())
                                        .setPrincipal("User:alice")
                                        .setHost("*")
                                        .setOperation(AclOperation.READ.code())
                                        .setPermissionType(AclPermissionType.ALLOW.code())),
                                record(new ClientQuotaRecord()
                                        .setEntity(List.of(new ClientQuotaRecord.EntityData()
                                                .setEntityType("user")
                                                .setEntityName("alice")))
                                        .setKey("producer_byte_rate")
                                        .setValue(1024)),
                                record(new UserScramCredentialRecord()
                                        .setName("alice")
                                        .setMechanism((byte) 1)
                                        .setSalt(new byte[16])
                                        .setStoredKey(new byte[32])
                                        .setServerKey(new byte[32])
                                        .setIterations(4096)))));
    }

    @Test
    void theTopicsConfigsAreReadAndWhatIsNotRestoredIsCounted() throws Exception {
        ClusterMetadataSnapshot snapshot = ClusterMetadataSnapshot.read(file);

        assertEquals(Map.of("retention.ms", "86400000", "cleanup.policy", "compact"), snapshot.topicConfigs("orders"));
        assertEquals(Map.of(), snapshot.topicConfigs("unknown"));
        MetadataRestoreReport report = snapshot.report(Set.of("orders", "events", "new-topic"));
        assertEquals(
                new MetadataRestoreReport(
                        Optional.of(file.toString()),
                        3,
                        0,
                        0,
                        0,
                        0,
                        List.of("new-topic"),
                        List.of(
                                "access control entries (ACLs): 2 read from the snapshot, not restored; this version restores"
                                        + " topic configs only",
                                "client quotas: 1 read from the snapshot, not restored; this version restores topic configs only",
                                "SCRAM credentials: 1 read from the snapshot, not restored; this version restores topic configs"
                                        + " only",
                                "feature levels: 2 read from the snapshot, not restored; this version restores topic configs only",
                                "consumer group offsets: not restored, they are not in a tiered archive")),
                report);
    }

    @Test
    void topicsOfTheSameIdPassTheCheck() throws Exception {
        ClusterMetadataSnapshot snapshot = ClusterMetadataSnapshot.read(file);
        assertDoesNotThrow(() -> snapshot.check(Map.of("orders", ORDERS, "new-topic", Uuid.randomUuid())));
    }

    @Test
    void aTopicOfAnotherIdIsADisagreement() throws Exception {
        ClusterMetadataSnapshot snapshot = ClusterMetadataSnapshot.read(file);
        Uuid other = Uuid.randomUuid();

        assertEquals(
                file + ": topic 'orders' has id " + other + " in the archive but " + ORDERS
                        + " in the metadata snapshot",
                assertThrows(
                                MetadataDisagreementException.class,
                                () -> snapshot.check(Map.of("events", EVENTS, "orders", other)))
                        .getMessage());
        assertEquals(
                file + ": topic id " + ORDERS + " is topic 'renamed' in the archive but 'orders' in the metadata"
                        + " snapshot",
                assertThrows(MetadataDisagreementException.class, () -> snapshot.check(Map.of("renamed", ORDERS)))
                        .getMessage());
    }

    @Test
    void withoutASnapshotNothingButTheTopicsIsRecovered() {
        assertEquals(
                new MetadataRestoreReport(
                        Optional.empty(),
                        0,
                        0,
                        0,
                        0,
                        0,
                        List.of("a", "b"),
                        List.of(
                                "topic configs: not restored without --metadata-snapshot; the topics take the broker's defaults but for retention",
                                "access control entries (ACLs): not restored; this version restores topic configs only",
                                "client quotas: not restored; this version restores topic configs only",
                                "SCRAM credentials: not restored; this version restores topic configs only",
                                "delegation tokens: not restored; this version restores topic configs only",
                                "feature levels: not restored; this version restores topic configs only",
                                "consumer group offsets: not restored, they are not in a tiered archive")),
                ClusterMetadataSnapshot.withoutSnapshot(Set.of("b", "a")));
    }

    @Test
    void aSnapshotWithoutItsFooterIsRefused() throws Exception {
        byte[] content = Files.readAllBytes(file);
        List<LogBatch> batches = new ArrayList<>();
        MemoryRecords.readableRecords(ByteBuffer.wrap(content), file.toString(), 0)
                .forEach(batches::add);
        Files.write(
                file, Arrays.copyOf(content, content.length - batches.getLast().sizeInBytes()));

        assertEquals(
                "--metadata-snapshot " + file + ": not a KRaft metadata snapshot: it does not end with a snapshot"
                        + " footer",
                refusal(file));
    }

    @Test
    void aCutSnapshotIsRefused() throws Exception {
        byte[] content = Files.readAllBytes(file);
        Files.write(file, Arrays.copyOf(content, content.length - 3));

        assertTrue(
                refusal(file)
                        .startsWith("--metadata-snapshot " + file + ": not a KRaft metadata snapshot: cut"
                                + " short: a batch at byte "),
                refusal(file));
    }

    @Test
    void aCorruptBatchIsRefused() throws Exception {
        byte[] content = Files.readAllBytes(file);
        content[content.length / 2] ^= 0x5a;
        Files.write(file, content);

        assertTrue(
                refusal(file).startsWith("--metadata-snapshot " + file + ": not a KRaft metadata snapshot: "),
                refusal(file));
    }

    @Test
    void aFileThatIsNoSnapshotOrNoFileIsRefused() throws Exception {
        Path text = Files.writeString(dir.resolve("server.properties"), "node.id=1\nprocess.roles=broker\n");
        assertTrue(
                refusal(text).startsWith("--metadata-snapshot " + text + ": not a KRaft metadata snapshot: "),
                refusal(text));
        Path missing = dir.resolve("missing.checkpoint");
        assertEquals("--metadata-snapshot " + missing + ": no such file", refusal(missing));
    }

    private static String refusal(Path file) {
        String message = assertThrows(InvalidRestoreArgumentException.class, () -> ClusterMetadataSnapshot.read(file))
                .getMessage();
        assertFalse(message.contains("\n"), message);
        return message;
    }

    private static ApiMessageAndVersion config(byte type, String resource, String name, String value) {
        return record(new ConfigRecord()
                .setResourceType(type)
                .setResourceName(resource)
                .setName(name)
                .setValue(value));
    }

    private static ApiMessageAndVersion record(org.apache.kafka.common.protocol.ApiMessage message) {
        return record(message, 0);
    }

    private static ApiMessageAndVersion record(org.apache.kafka.common.protocol.ApiMessage message, int version) {
        return new ApiMessageAndVersion(message, (short) version);
    }

    private static org.apache.kafka.common.Uuid kafka(Uuid id) {
        return new org.apache.kafka.common.Uuid(id.mostSignificantBits(), id.leastSignificantBits());
    }
}
