package io.krabka.kernel.group;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.coordinator.CoordinatorRecordException;
import io.krabka.spi.common.Uuid;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.protocol.MessageUtil;
import org.apache.kafka.coordinator.common.runtime.CoordinatorRecord;
import org.apache.kafka.coordinator.group.GroupCoordinatorRecordSerde;
import org.apache.kafka.server.common.ApiMessageAndVersion;
import org.junit.jupiter.api.Test;

/**
 * The records of {@code __consumer_offsets} judged by Kafka 4.4's group coordinator: what Krabka writes is byte for
 * byte what Kafka's {@code GroupCoordinatorRecordSerde} writes, and every version Kafka's generated classes write
 * reads back.
 */
class CoordinatorRecordSerdeTest {

    private static final GroupCoordinatorRecordSerde KAFKA = new GroupCoordinatorRecordSerde();
    private static final Uuid TOPIC_ID = Uuid.fromString("b8tGJhHWRkqYnGuCTaQzHw");

    private static io.krabka.kernel.group.CoordinatorRecord.OffsetCommit offset(long expireTimestamp, Uuid topicId) {
        return new io.krabka.kernel.group.CoordinatorRecord.OffsetCommit(
                new OffsetCommitKey("payments", "orders", 7),
                new OffsetCommitValue(42_000_000_000L, 5, "meta-\u00e9", 1_700_000_000_123L, expireTimestamp, topicId));
    }

    private static org.apache.kafka.coordinator.group.generated.OffsetCommitKey kafkaOffsetKey() {
        return new org.apache.kafka.coordinator.group.generated.OffsetCommitKey()
                .setGroup("payments")
                .setTopic("orders")
                .setPartition(7);
    }

    private static org.apache.kafka.coordinator.group.generated.OffsetCommitValue kafkaOffsetValue(
            long expireTimestamp, org.apache.kafka.common.Uuid topicId) {
        return new org.apache.kafka.coordinator.group.generated.OffsetCommitValue()
                .setOffset(42_000_000_000L)
                .setLeaderEpoch(5)
                .setMetadata("meta-\u00e9")
                .setCommitTimestamp(1_700_000_000_123L)
                .setExpireTimestamp(expireTimestamp)
                .setTopicId(topicId);
    }

    private static io.krabka.kernel.group.CoordinatorRecord.GroupMetadata group() {
        return new io.krabka.kernel.group.CoordinatorRecord.GroupMetadata(
                new GroupMetadataKey("payments"),
                new GroupMetadataValue(
                        "consumer",
                        3,
                        "range",
                        "m-1",
                        1_700_000_000_000L,
                        List.of(
                                new GroupMetadataValue.MemberMetadata(
                                        "m-1",
                                        null,
                                        "client-a",
                                        "/127.0.0.1",
                                        60_000,
                                        10_000,
                                        bytes("subscription-1"),
                                        bytes("assignment-1")),
                                new GroupMetadataValue.MemberMetadata(
                                        "m-2",
                                        "instance-2",
                                        "client-b",
                                        "/10.0.0.2",
                                        45_000,
                                        12_000,
                                        bytes("subscription-2"),
                                        new byte[0]))));
    }

    private static org.apache.kafka.coordinator.group.generated.GroupMetadataValue kafkaGroupValue() {
        return new org.apache.kafka.coordinator.group.generated.GroupMetadataValue()
                .setProtocolType("consumer")
                .setGeneration(3)
                .setProtocol("range")
                .setLeader("m-1")
                .setCurrentStateTimestamp(1_700_000_000_000L)
                .setMembers(List.of(
                        new org.apache.kafka.coordinator.group.generated.GroupMetadataValue.MemberMetadata()
                                .setMemberId("m-1")
                                .setGroupInstanceId(null)
                                .setClientId("client-a")
                                .setClientHost("/127.0.0.1")
                                .setRebalanceTimeout(60_000)
                                .setSessionTimeout(10_000)
                                .setSubscription(bytes("subscription-1"))
                                .setAssignment(bytes("assignment-1")),
                        new org.apache.kafka.coordinator.group.generated.GroupMetadataValue.MemberMetadata()
                                .setMemberId("m-2")
                                .setGroupInstanceId("instance-2")
                                .setClientId("client-b")
                                .setClientHost("/10.0.0.2")
                                .setRebalanceTimeout(45_000)
                                .setSessionTimeout(12_000)
                                .setSubscription(bytes("subscription-2"))
                                .setAssignment(new byte[0])));
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    private static org.apache.kafka.common.Uuid wire(Uuid id) {
        return new org.apache.kafka.common.Uuid(id.mostSignificantBits(), id.leastSignificantBits());
    }

    @Test
    void anOffsetCommitIsWrittenAsKafkaWritesItAtVersionFour() {
        CoordinatorRecord kafka = CoordinatorRecord.record(
                kafkaOffsetKey(),
                new ApiMessageAndVersion(kafkaOffsetValue(-1, org.apache.kafka.common.Uuid.ZERO_UUID), (short) 4));
        assertArrayEquals(KAFKA.serializeKey(kafka), CoordinatorRecordSerde.serializeKey(offset(-1, Uuid.ZERO_UUID)));
        assertArrayEquals(
                KAFKA.serializeValue(kafka), CoordinatorRecordSerde.serializeValue(offset(-1, Uuid.ZERO_UUID)));
    }

    @Test
    void aTopicIdIsTheTaggedFieldOfVersionFour() {
        CoordinatorRecord kafka = CoordinatorRecord.record(
                kafkaOffsetKey(), new ApiMessageAndVersion(kafkaOffsetValue(-1, wire(TOPIC_ID)), (short) 4));
        byte[] ours = CoordinatorRecordSerde.serializeValue(offset(-1, TOPIC_ID));
        assertArrayEquals(KAFKA.serializeValue(kafka), ours);
        CoordinatorRecord read = KAFKA.deserialize(ByteBuffer.wrap(KAFKA.serializeKey(kafka)), ByteBuffer.wrap(ours));
        assertEquals(
                wire(TOPIC_ID),
                ((org.apache.kafka.coordinator.group.generated.OffsetCommitValue)
                                read.value().message())
                        .topicId());
    }

    @Test
    void anExpireTimestampIsWrittenAtVersionOneAsKafkaDoes() {
        CoordinatorRecord kafka = CoordinatorRecord.record(
                kafkaOffsetKey(),
                new ApiMessageAndVersion(
                        kafkaOffsetValue(1_700_000_600_000L, org.apache.kafka.common.Uuid.ZERO_UUID), (short) 1));
        assertArrayEquals(
                KAFKA.serializeValue(kafka),
                CoordinatorRecordSerde.serializeValue(offset(1_700_000_600_000L, Uuid.ZERO_UUID)));
        assertEquals(1, offset(1_700_000_600_000L, Uuid.ZERO_UUID).value().writeVersion());
    }

    @Test
    void groupMetadataIsWrittenAsKafkaWritesItAtVersionThree() {
        CoordinatorRecord kafka = CoordinatorRecord.record(
                new org.apache.kafka.coordinator.group.generated.GroupMetadataKey().setGroup("payments"),
                new ApiMessageAndVersion(kafkaGroupValue(), (short) 3));
        assertArrayEquals(KAFKA.serializeKey(kafka), CoordinatorRecordSerde.serializeKey(group()));
        assertArrayEquals(KAFKA.serializeValue(kafka), CoordinatorRecordSerde.serializeValue(group()));
    }

    @Test
    void tombstonesHaveNoValueAsInKafka() {
        CoordinatorRecord kafkaOffset = CoordinatorRecord.tombstone(kafkaOffsetKey());
        var ourOffset = new io.krabka.kernel.group.CoordinatorRecord.OffsetCommit(
                new OffsetCommitKey("payments", "orders", 7), null);
        assertNull(KAFKA.serializeValue(kafkaOffset));
        assertNull(CoordinatorRecordSerde.serializeValue(ourOffset));
        assertArrayEquals(KAFKA.serializeKey(kafkaOffset), CoordinatorRecordSerde.serializeKey(ourOffset));
        var read = CoordinatorRecordSerde.deserialize(ByteBuffer.wrap(KAFKA.serializeKey(kafkaOffset)), null);
        assertTrue(read.orElseThrow().isTombstone());
        var groupTombstone = CoordinatorRecordSerde.deserialize(
                        ByteBuffer.wrap(KAFKA.serializeKey(CoordinatorRecord.tombstone(
                                new org.apache.kafka.coordinator.group.generated.GroupMetadataKey()
                                        .setGroup("payments")))),
                        null)
                .orElseThrow();
        assertEquals(
                new GroupMetadataKey("payments"),
                assertInstanceOf(io.krabka.kernel.group.CoordinatorRecord.GroupMetadata.class, groupTombstone)
                        .key());
    }

    @Test
    void everyOffsetCommitValueVersionKafkaDefinesReadsBack() {
        for (short version = 0; version <= 4; version++) {
            var kafkaValue = kafkaOffsetValue(
                    version == 1 ? 1_700_000_600_000L : -1,
                    version == 4 ? wire(TOPIC_ID) : org.apache.kafka.common.Uuid.ZERO_UUID);
            OffsetCommitValue read = decodeOffset(valueBytes(kafkaValue, version));
            assertEquals(42_000_000_000L, read.offset(), "version " + version);
            assertEquals(version >= 3 ? 5 : -1, read.leaderEpoch(), "version " + version);
            assertEquals("meta-\u00e9", read.metadata());
            assertEquals(1_700_000_000_123L, read.commitTimestamp());
            assertEquals(version == 1 ? 1_700_000_600_000L : -1, read.expireTimestamp());
            assertEquals(version == 4 ? TOPIC_ID : Uuid.ZERO_UUID, read.topicId());
        }
    }

    @Test
    void everyGroupMetadataValueVersionKafkaDefinesReadsBack() {
        for (short version = 0; version <= 4; version++) {
            var kafkaValue = kafkaGroupValue();
            if (version < 3) {
                kafkaValue.members().forEach(m -> m.setGroupInstanceId(null));
            }
            var read = CoordinatorRecordSerde.deserialize(
                            ByteBuffer.wrap(CoordinatorRecordSerde.serializeKey(group())),
                            ByteBuffer.wrap(valueBytes(kafkaValue, version)))
                    .orElseThrow();
            GroupMetadataValue value = ((io.krabka.kernel.group.CoordinatorRecord.GroupMetadata) read).value();
            assertEquals("consumer", value.protocolType());
            assertEquals(3, value.generation());
            assertEquals("range", value.protocol());
            assertEquals("m-1", value.leader());
            assertEquals(version >= 2 ? 1_700_000_000_000L : -1, value.currentStateTimestamp());
            GroupMetadataValue.MemberMetadata second = value.members().get(1);
            assertEquals("m-2", second.memberId());
            assertEquals(version >= 3 ? "instance-2" : null, second.groupInstanceId());
            assertEquals(version >= 1 ? 45_000 : -1, second.rebalanceTimeout());
            assertEquals(12_000, second.sessionTimeout());
            assertArrayEquals(bytes("subscription-2"), second.subscription());
            assertArrayEquals(bytes("assignment-1"), value.members().get(0).assignment());
        }
    }

    @Test
    void kafkaReadsWhatKrabkaWrites() {
        var ours = group();
        CoordinatorRecord read = KAFKA.deserialize(
                ByteBuffer.wrap(CoordinatorRecordSerde.serializeKey(ours)),
                ByteBuffer.wrap(CoordinatorRecordSerde.serializeValue(ours)));
        assertEquals(kafkaGroupValue(), read.value().message());
        assertEquals(3, read.value().version());
    }

    @Test
    void theRecordsOfOtherGroupTypesAreSkipped() {
        // Record type 3: a consumer group's metadata (KIP-848), which the classic coordinator does not keep.
        byte[] key = ByteBuffer.allocate(2 + 2 + 1)
                .putShort((short) 3)
                .putShort((short) 1)
                .put((byte) 'g')
                .array();
        assertEquals(Optional.empty(), CoordinatorRecordSerde.deserialize(ByteBuffer.wrap(key), null));
    }

    @Test
    void truncatedOrPaddedBytesAreATypedError() {
        byte[] value = CoordinatorRecordSerde.serializeValue(group());
        byte[] key = CoordinatorRecordSerde.serializeKey(group());
        for (int cut = 0; cut < value.length; cut++) {
            ByteBuffer truncated = ByteBuffer.wrap(Arrays.copyOf(value, cut));
            assertThrows(
                    CoordinatorRecordException.class,
                    () -> CoordinatorRecordSerde.deserialize(ByteBuffer.wrap(key), truncated),
                    "cut at " + cut);
        }
        ByteBuffer padded = ByteBuffer.wrap(Arrays.copyOf(value, value.length + 1));
        assertThrows(
                CoordinatorRecordException.class,
                () -> CoordinatorRecordSerde.deserialize(ByteBuffer.wrap(key), padded));
        byte[] badVersion = value.clone();
        badVersion[1] = 9;
        assertThrows(
                CoordinatorRecordException.class,
                () -> CoordinatorRecordSerde.deserialize(ByteBuffer.wrap(key), ByteBuffer.wrap(badVersion)));
    }

    private static byte[] valueBytes(org.apache.kafka.common.protocol.ApiMessage message, short version) {
        return MessageUtil.toVersionPrefixedBytes(version, message);
    }

    private static OffsetCommitValue decodeOffset(byte[] value) {
        byte[] key = CoordinatorRecordSerde.serializeKey(offset(-1, Uuid.ZERO_UUID));
        var read = CoordinatorRecordSerde.deserialize(ByteBuffer.wrap(key), ByteBuffer.wrap(value))
                .orElseThrow();
        return ((io.krabka.kernel.group.CoordinatorRecord.OffsetCommit) read).value();
    }
}
