package io.krabka.kernel.metadata;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.krabka.spi.common.Uuid;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.metadata.ConfigRecord;
import org.apache.kafka.common.metadata.PartitionRecord;
import org.apache.kafka.common.metadata.ProducerIdsRecord;
import org.apache.kafka.common.metadata.RemoveTopicRecord;
import org.apache.kafka.common.metadata.TopicRecord;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.metadata.MetadataRecordSerde;
import org.apache.kafka.server.common.ApiMessageAndVersion;
import org.junit.jupiter.api.Test;

/**
 * Kafka 4.4's generated metadata records and its {@code MetadataRecordSerde} judge Krabka's codecs: for each record
 * and version, the framed bytes are Kafka's, Kafka reads Krabka's bytes to the same record, and Krabka reads
 * Kafka's bytes back to the record it started from.
 */
class MetadataRecordsTest {

    private static final Uuid TOPIC_ID = Uuid.fromString("b0hVOgKSTv-TTc7bR6xMpA");
    private static final Uuid DIR_ID = Uuid.fromString("fM8RA2ptTOqMCj6wFHNEQw");

    @Test
    void topicRecords() {
        for (String name : List.of("orders", "", "t\u00f6pic.\u7248", "x".repeat(249), "n".repeat(200))) {
            judge(
                    new io.krabka.kernel.metadata.TopicRecord(name, TOPIC_ID),
                    (short) 0,
                    new TopicRecord().setName(name).setTopicId(kafka(TOPIC_ID)));
        }
    }

    @Test
    void partitionRecordsAtEveryVersion() {
        for (short version = 0; version <= 2; version++) {
            List<Uuid> dirs = version >= 1 ? List.of(DIR_ID) : List.of();
            io.krabka.kernel.metadata.PartitionRecord plain = new io.krabka.kernel.metadata.PartitionRecord(
                    7,
                    TOPIC_ID,
                    List.of(1),
                    List.of(1),
                    List.of(),
                    List.of(),
                    1,
                    (byte) 0,
                    0,
                    0,
                    dirs,
                    Optional.empty(),
                    Optional.empty());
            judge(plain, version, kafkaPartition(plain));

            io.krabka.kernel.metadata.PartitionRecord busy = new io.krabka.kernel.metadata.PartitionRecord(
                    -1,
                    TOPIC_ID,
                    List.of(3, 1, 2),
                    List.of(3, 1),
                    List.of(2),
                    List.of(4, 5),
                    -1,
                    (byte) 1,
                    Integer.MAX_VALUE,
                    17,
                    version >= 1 ? List.of(DIR_ID, Uuid.ZERO_UUID, DIR_ID) : List.of(),
                    version >= 2 ? Optional.of(List.of(2)) : Optional.empty(),
                    version >= 2 ? Optional.of(List.of()) : Optional.empty());
            judge(busy, version, kafkaPartition(busy));
        }
        List<Integer> many = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            many.add(i);
        }
        io.krabka.kernel.metadata.PartitionRecord large = new io.krabka.kernel.metadata.PartitionRecord(
                0,
                TOPIC_ID,
                many,
                many,
                List.of(),
                List.of(),
                0,
                (byte) 0,
                1,
                2,
                List.of(),
                Optional.of(many),
                Optional.of(many));
        judge(large, (short) 2, kafkaPartition(large));
    }

    @Test
    void configRecords() {
        for (String value : new String[] {"604800000", null, "", "compact,delete"}) {
            judge(
                    new io.krabka.kernel.metadata.ConfigRecord(
                            io.krabka.kernel.metadata.ConfigRecord.TOPIC, "orders", "retention.ms", value),
                    (short) 0,
                    new ConfigRecord()
                            .setResourceType((byte) 2)
                            .setResourceName("orders")
                            .setName("retention.ms")
                            .setValue(value));
        }
        judge(
                new io.krabka.kernel.metadata.ConfigRecord(
                        io.krabka.kernel.metadata.ConfigRecord.BROKER, "", "log.retention.ms", "1000"),
                (short) 0,
                new ConfigRecord()
                        .setResourceType((byte) 4)
                        .setResourceName("")
                        .setName("log.retention.ms")
                        .setValue("1000"));
    }

    @Test
    void removeTopicAndProducerIdsRecords() {
        judge(
                new io.krabka.kernel.metadata.RemoveTopicRecord(TOPIC_ID),
                (short) 0,
                new RemoveTopicRecord().setTopicId(kafka(TOPIC_ID)));
        for (long next : new long[] {0, 1000, Long.MAX_VALUE}) {
            judge(
                    new io.krabka.kernel.metadata.ProducerIdsRecord(1, -1, next),
                    (short) 0,
                    new ProducerIdsRecord().setBrokerId(1).setBrokerEpoch(-1).setNextProducerId(next));
        }
        judge(
                new io.krabka.kernel.metadata.ProducerIdsRecord(Integer.MIN_VALUE, 42, 7),
                (short) 0,
                new ProducerIdsRecord()
                        .setBrokerId(Integer.MIN_VALUE)
                        .setBrokerEpoch(42)
                        .setNextProducerId(7));
    }

    @Test
    void partitionChangeRecordsAtEveryVersion() {
        for (short version = 0; version <= 2; version++) {
            judge(
                    PartitionChangeRecord.electing(TOPIC_ID, 3, 1),
                    version,
                    new org.apache.kafka.common.metadata.PartitionChangeRecord()
                            .setPartitionId(3)
                            .setTopicId(kafka(TOPIC_ID))
                            .setLeader(1));
            judge(
                    new PartitionChangeRecord(
                            0,
                            TOPIC_ID,
                            Optional.empty(),
                            PartitionChangeRecord.NO_LEADER_CHANGE,
                            Optional.empty(),
                            Optional.empty(),
                            Optional.empty(),
                            (byte) -1,
                            Optional.empty(),
                            Optional.empty(),
                            Optional.empty()),
                    version,
                    new org.apache.kafka.common.metadata.PartitionChangeRecord()
                            .setPartitionId(0)
                            .setTopicId(kafka(TOPIC_ID)));
            PartitionChangeRecord busy = new PartitionChangeRecord(
                    9,
                    TOPIC_ID,
                    Optional.of(List.of()),
                    -1,
                    Optional.of(List.of(1, 2)),
                    Optional.of(List.of(2)),
                    Optional.of(List.of(3)),
                    (byte) 1,
                    version >= 2 ? Optional.of(List.of(1)) : Optional.empty(),
                    version >= 2 ? Optional.of(List.of(1, 2)) : Optional.empty(),
                    version >= 1 ? Optional.of(List.of(DIR_ID, Uuid.ZERO_UUID)) : Optional.empty());
            org.apache.kafka.common.metadata.PartitionChangeRecord theirs =
                    new org.apache.kafka.common.metadata.PartitionChangeRecord()
                            .setPartitionId(9)
                            .setTopicId(kafka(TOPIC_ID))
                            .setIsr(List.of())
                            .setLeader(-1)
                            .setReplicas(List.of(1, 2))
                            .setRemovingReplicas(List.of(2))
                            .setAddingReplicas(List.of(3))
                            .setLeaderRecoveryState((byte) 1);
            if (version >= 1) {
                theirs.setDirectories(List.of(kafka(DIR_ID), kafka(Uuid.ZERO_UUID)));
            }
            if (version >= 2) {
                theirs.setEligibleLeaderReplicas(List.of(1)).setLastKnownElr(List.of(1, 2));
            }
            judge(busy, version, theirs);
        }
        PartitionRegistration before = new PartitionRegistration(List.of(1), List.of(1), -1, 4, 9);
        assertEquals(
                new PartitionRegistration(List.of(1), List.of(1), 1, 5, 10),
                PartitionChangeRecord.electing(TOPIC_ID, 0, 1).merge(before));
    }

    @Test
    void metadataTransactionMarkersAndNoOps() {
        judge(
                new MetadataTransactionRecord(MetadataTransactionRecord.Kind.BEGIN, Optional.of("Bootstrap records")),
                (short) 0,
                new org.apache.kafka.common.metadata.BeginTransactionRecord().setName("Bootstrap records"));
        judge(
                MetadataTransactionRecord.of(MetadataTransactionRecord.Kind.BEGIN),
                (short) 0,
                new org.apache.kafka.common.metadata.BeginTransactionRecord());
        judge(
                MetadataTransactionRecord.of(MetadataTransactionRecord.Kind.END),
                (short) 0,
                new org.apache.kafka.common.metadata.EndTransactionRecord());
        judge(
                MetadataTransactionRecord.of(MetadataTransactionRecord.Kind.ABORT),
                (short) 0,
                new org.apache.kafka.common.metadata.AbortTransactionRecord());
        judge(
                MetadataTransactionRecord.of(MetadataTransactionRecord.Kind.NO_OP),
                (short) 0,
                new org.apache.kafka.common.metadata.NoOpRecord());
    }

    /** Every record type of Kafka 4.4's MetadataRecordType, at every version, is read, and kept byte for byte. */
    @Test
    void everyRecordTypeKafkaWritesIsReadAndTheOnesNotServedAreKeptByteForByte() {
        for (org.apache.kafka.common.metadata.MetadataRecordType type :
                org.apache.kafka.common.metadata.MetadataRecordType.values()) {
            Optional<RetainedRecordType> retained = RetainedRecordType.of(type.id());
            retained.ifPresent(
                    ours -> assertEquals(type.highestSupportedVersion(), ours.highestVersion(), type.name()));
            for (short version = type.lowestSupportedVersion(); version <= type.highestSupportedVersion(); version++) {
                ByteBuffer theirs = kafkaFramed(type.newMetadataRecord(), version);
                MetadataRecordAndVersion read = io.krabka.kernel.metadata.MetadataRecordSerde.read(theirs);
                assertEquals(type.id(), read.record().apiKey(), type + " v" + version);
                assertEquals(version, read.version(), type + " v" + version);
                assertEquals(retained.isPresent(), read.record() instanceof RetainedRecord, type.name());
                assertEquals(
                        theirs, io.krabka.kernel.metadata.MetadataRecordSerde.serialize(read), type + " v" + version);
            }
        }
        org.apache.kafka.common.metadata.RegisterBrokerRecord broker =
                new org.apache.kafka.common.metadata.RegisterBrokerRecord()
                        .setBrokerId(1)
                        .setBrokerEpoch(42)
                        .setIncarnationId(kafka(DIR_ID))
                        .setRack("r1")
                        .setLogDirs(List.of(kafka(DIR_ID)))
                        .setFenced(true);
        broker.endPoints()
                .add(new org.apache.kafka.common.metadata.RegisterBrokerRecord.BrokerEndpoint()
                        .setName("PLAINTEXT")
                        .setHost("127.0.0.1")
                        .setPort(9092)
                        .setSecurityProtocol((short) 0));
        ByteBuffer theirs = kafkaFramed(broker, (short) 4);
        MetadataRecordAndVersion read = io.krabka.kernel.metadata.MetadataRecordSerde.read(theirs);
        assertEquals(RetainedRecordType.REGISTER_BROKER_RECORD, ((RetainedRecord) read.record()).type());
        ByteBuffer mine = io.krabka.kernel.metadata.MetadataRecordSerde.serialize(read);
        assertEquals(
                new ApiMessageAndVersion(broker, (short) 4),
                new MetadataRecordSerde().read(new ByteBufferAccessor(mine.duplicate()), mine.remaining()));
    }

    @Test
    void unknownTaggedFieldsAreSkipped() {
        TopicRecord kafka = new TopicRecord().setName("tagged").setTopicId(kafka(TOPIC_ID));
        kafka.unknownTaggedFields()
                .add(new org.apache.kafka.common.protocol.types.RawTaggedField(9, new byte[] {1, 2, 3}));
        ByteBuffer theirs = kafkaFramed(kafka, (short) 0);
        assertEquals(
                new MetadataRecordAndVersion(new io.krabka.kernel.metadata.TopicRecord("tagged", TOPIC_ID), (short) 0),
                io.krabka.kernel.metadata.MetadataRecordSerde.read(theirs));
    }

    @Test
    void badBytesAreRefusedWithTypedErrors() {
        ByteBuffer good = io.krabka.kernel.metadata.MetadataRecordSerde.serialize(
                new io.krabka.kernel.metadata.TopicRecord("orders", TOPIC_ID), (short) 0);
        for (int cut = 0; cut < good.remaining(); cut++) {
            ByteBuffer truncated = good.duplicate().limit(cut);
            assertThrows(
                    MetadataParseException.class,
                    () -> io.krabka.kernel.metadata.MetadataRecordSerde.read(truncated),
                    "cut at " + cut);
        }
        ByteBuffer longer = ByteBuffer.allocate(good.remaining() + 1)
                .put(good.duplicate())
                .put((byte) 0)
                .flip();
        assertThrows(MetadataParseException.class, () -> io.krabka.kernel.metadata.MetadataRecordSerde.read(longer));
        ByteBuffer frame2 = good.duplicate();
        ByteBuffer wrongFrame = ByteBuffer.allocate(frame2.remaining())
                .put(frame2)
                .put(0, (byte) 2)
                .flip();
        assertEquals(
                "Could not deserialize metadata record due to unknown frame version 2(only frame version 1 is supported)",
                assertThrows(
                                MetadataParseException.class,
                                () -> io.krabka.kernel.metadata.MetadataRecordSerde.read(wrongFrame))
                        .getMessage());
        ByteBuffer unknownType = ByteBuffer.wrap(new byte[] {1, 99, 0, 0});
        assertEquals(
                "Krabka does not know metadata record type 99",
                assertThrows(
                                MetadataParseException.class,
                                () -> io.krabka.kernel.metadata.MetadataRecordSerde.read(unknownType))
                        .getMessage());
        ByteBuffer newerThanKafka44 =
                kafkaFramed(new org.apache.kafka.common.metadata.RegisterBrokerRecord(), (short) 4);
        newerThanKafka44.put(2, (byte) 5);
        assertEquals(
                "Metadata record type 0 has no version 5",
                assertThrows(
                                MetadataParseException.class,
                                () -> io.krabka.kernel.metadata.MetadataRecordSerde.read(newerThanKafka44))
                        .getMessage());
        ByteBuffer badVersion = kafkaFramed(new TopicRecord().setName("x").setTopicId(kafka(TOPIC_ID)), (short) 0);
        badVersion.put(2, (byte) 1);
        assertThrows(
                MetadataParseException.class, () -> io.krabka.kernel.metadata.MetadataRecordSerde.read(badVersion));
    }

    @Test
    void fieldsAKafkaVersionLacksAreNotWritten() {
        io.krabka.kernel.metadata.PartitionRecord withDirs = new io.krabka.kernel.metadata.PartitionRecord(
                0,
                TOPIC_ID,
                List.of(1),
                List.of(1),
                List.of(),
                List.of(),
                1,
                (byte) 0,
                0,
                0,
                List.of(DIR_ID),
                Optional.empty(),
                Optional.empty());
        assertThrows(IllegalArgumentException.class, () -> withDirs.size((short) 0));
        assertThrows(IllegalArgumentException.class, () -> withDirs.size((short) 3));
        assertThrows(
                IllegalArgumentException.class,
                () -> new io.krabka.kernel.metadata.ConfigRecord((byte) 2, "t", "k", "v".repeat(Short.MAX_VALUE + 1)));
    }

    /** Krabka's framed bytes equal Kafka's; each side reads the other's. */
    static void judge(MetadataRecord ours, short version, ApiMessage kafka) {
        ByteBuffer theirs = kafkaFramed(kafka, version);
        ByteBuffer mine = io.krabka.kernel.metadata.MetadataRecordSerde.serialize(ours, version);
        assertEquals(theirs, mine, ours + " v" + version);
        assertEquals(theirs.remaining(), ours.size(version) + 3, ours + " v" + version);
        ApiMessageAndVersion read =
                new MetadataRecordSerde().read(new ByteBufferAccessor(mine.duplicate()), mine.remaining());
        assertEquals(new ApiMessageAndVersion(kafka, version), read, ours + " v" + version);
        assertEquals(
                new MetadataRecordAndVersion(ours, version),
                io.krabka.kernel.metadata.MetadataRecordSerde.read(theirs));
    }

    static ByteBuffer kafkaFramed(ApiMessage message, short version) {
        MetadataRecordSerde serde = new MetadataRecordSerde();
        ApiMessageAndVersion framed = new ApiMessageAndVersion(message, version);
        ObjectSerializationCache cache = new ObjectSerializationCache();
        ByteBuffer buffer = ByteBuffer.allocate(serde.recordSize(framed, cache));
        serde.write(framed, cache, new ByteBufferAccessor(buffer));
        return buffer.flip();
    }

    private static PartitionRecord kafkaPartition(io.krabka.kernel.metadata.PartitionRecord ours) {
        return new PartitionRecord()
                .setPartitionId(ours.partitionId())
                .setTopicId(kafka(ours.topicId()))
                .setReplicas(ours.replicas())
                .setIsr(ours.isr())
                .setRemovingReplicas(ours.removingReplicas())
                .setAddingReplicas(ours.addingReplicas())
                .setLeader(ours.leader())
                .setLeaderRecoveryState(ours.leaderRecoveryState())
                .setLeaderEpoch(ours.leaderEpoch())
                .setPartitionEpoch(ours.partitionEpoch())
                .setDirectories(ours.directories().stream()
                        .map(MetadataRecordsTest::kafka)
                        .toList())
                .setEligibleLeaderReplicas(ours.eligibleLeaderReplicas().orElse(null))
                .setLastKnownElr(ours.lastKnownElr().orElse(null));
    }

    private static org.apache.kafka.common.Uuid kafka(Uuid id) {
        return new org.apache.kafka.common.Uuid(id.mostSignificantBits(), id.leastSignificantBits());
    }
}
