package io.krabka.kernel.metadata;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.nio.ByteBuffer;
import java.util.List;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.ObjectSerializationCache;
import org.apache.kafka.metadata.MetadataRecordSerde;
import org.apache.kafka.server.common.ApiMessageAndVersion;
import org.junit.jupiter.api.Test;

/**
 * Kafka 4.4's generated {@code FeatureLevelRecord} and its {@code MetadataRecordSerde} judge Krabka's codec: the
 * same bytes for the record and for its framed form, and Kafka reads Krabka's bytes back to the same record.
 */
class FeatureLevelRecordTest {
    private static final List<FeatureLevelRecord> RECORDS = List.of(
            new FeatureLevelRecord("metadata.version", (short) 33),
            new FeatureLevelRecord("eligible.leader.replicas.version", (short) 1),
            new FeatureLevelRecord("", (short) 0),
            new FeatureLevelRecord("g\u00e9n\u00e9ration.\u7248\u672c", Short.MAX_VALUE),
            new FeatureLevelRecord("negative.level", Short.MIN_VALUE),
            // A name whose length needs a two-byte varint.
            new FeatureLevelRecord("n".repeat(200), (short) 7),
            new FeatureLevelRecord("x".repeat(Short.MAX_VALUE), (short) 2));

    @Test
    void theRecordIsKafkasByteForByte() {
        for (FeatureLevelRecord record : RECORDS) {
            org.apache.kafka.common.metadata.FeatureLevelRecord kafka = kafka(record);
            ObjectSerializationCache cache = new ObjectSerializationCache();
            ByteBuffer theirs = ByteBuffer.allocate(kafka.size(cache, (short) 0));
            kafka.write(new ByteBufferAccessor(theirs), cache, (short) 0);
            ByteBuffer ours = ByteBuffer.allocate(record.size((short) 0));
            record.write(new ByteBufferAccessor(ours), (short) 0);

            assertEquals(theirs.capacity(), ours.capacity(), record.name());
            assertArrayEquals(theirs.array(), ours.array(), record.name());
        }
    }

    @Test
    void theFramedRecordIsKafkasAndKafkaReadsItBack() {
        MetadataRecordSerde serde = new MetadataRecordSerde();
        for (FeatureLevelRecord record : RECORDS) {
            ApiMessageAndVersion kafka = new ApiMessageAndVersion(kafka(record), (short) 0);
            ObjectSerializationCache cache = new ObjectSerializationCache();
            ByteBuffer theirs = ByteBuffer.allocate(serde.recordSize(kafka, cache));
            serde.write(kafka, cache, new ByteBufferAccessor(theirs));

            ByteBuffer ours = io.krabka.kernel.metadata.MetadataRecordSerde.serialize(record, (short) 0);

            assertEquals(theirs.flip(), ours, record.name());
            assertEquals(kafka, serde.read(new ByteBufferAccessor(ours.duplicate()), ours.remaining()));
        }
    }

    @Test
    void onlyVersionZeroExistsAndNamesAreBounded() {
        FeatureLevelRecord record = new FeatureLevelRecord("group.version", (short) 1);
        assertEquals(FeatureLevelRecord.API_KEY, record.apiKey());
        assertEquals(0, record.highestSupportedVersion());
        assertEquals(
                "FeatureLevelRecord has no version 1",
                assertThrows(IllegalArgumentException.class, () -> record.size((short) 1))
                        .getMessage());
        assertThrows(
                IllegalArgumentException.class,
                () -> io.krabka.kernel.metadata.MetadataRecordSerde.serialize(record, (short) 1));
        assertEquals(
                "'name' field is too long to be serialized",
                assertThrows(
                                IllegalArgumentException.class,
                                () -> new FeatureLevelRecord("x".repeat(Short.MAX_VALUE + 1), (short) 1))
                        .getMessage());
        assertThrows(NullPointerException.class, () -> new FeatureLevelRecord(null, (short) 1));
    }

    private static org.apache.kafka.common.metadata.FeatureLevelRecord kafka(FeatureLevelRecord record) {
        return new org.apache.kafka.common.metadata.FeatureLevelRecord()
                .setName(record.name())
                .setFeatureLevel(record.featureLevel());
    }
}
