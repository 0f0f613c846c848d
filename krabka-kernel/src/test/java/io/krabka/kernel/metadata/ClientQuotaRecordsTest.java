package io.krabka.kernel.metadata;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.krabka.kernel.metadata.ClientQuotaRecord.EntityData;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.image.ClientQuotasDelta;
import org.junit.jupiter.api.Test;

/**
 * Kafka 4.4's generated {@code ClientQuotaRecord} judges Krabka's: the framed bytes are Kafka's and each side reads
 * the other's, so a record Krabka reads is written back as Kafka wrote it; replayed, the records give the quotas
 * Kafka's own {@code ClientQuotasDelta} gives.
 */
class ClientQuotaRecordsTest {

    private static final List<EntityData> ALICE_APP =
            List.of(new EntityData("user", "alice"), new EntityData("client-id", "app-\u00e4"));

    @Test
    void clientQuotaRecordsAreKafkas() {
        for (ClientQuotaRecord ours : List.of(
                new ClientQuotaRecord(ALICE_APP, "producer_byte_rate", 1_048_576, false),
                new ClientQuotaRecord(List.of(ALICE_APP.get(1), ALICE_APP.get(0)), "request_percentage", 12.5, false),
                new ClientQuotaRecord(
                        List.of(new EntityData("user", null)), "consumer_byte_rate", Double.MAX_VALUE, false),
                new ClientQuotaRecord(
                        List.of(new EntityData("ip", "10.0.0.7")), "connection_creation_rate", -0.0, false),
                new ClientQuotaRecord(List.of(new EntityData("client-id", null)), "producer_byte_rate", 0, true),
                new ClientQuotaRecord(List.of(), "", Double.MIN_VALUE, false))) {
            MetadataRecordsTest.judge(ours, (short) 0, kafka(ours));
        }
    }

    @Test
    void aCutOrNullEntityIsRefused() {
        ByteBuffer bytes = MetadataRecordSerde.serialize(
                new ClientQuotaRecord(ALICE_APP, "producer_byte_rate", 1024, false), (short) 0);
        assertThrows(
                MetadataParseException.class,
                () -> MetadataRecordSerde.read(bytes.duplicate().limit(bytes.limit() - 2)));
        ByteBuffer nullEntity = bytes.duplicate();
        nullEntity.put(3, (byte) 0);
        assertThrows(MetadataParseException.class, () -> MetadataRecordSerde.read(nullEntity));
    }

    @Test
    void replayedRecordsGiveTheQuotasKafkasDeltaGives() {
        List<ClientQuotaRecord> first = List.of(
                new ClientQuotaRecord(ALICE_APP, "producer_byte_rate", 1024, false),
                new ClientQuotaRecord(ALICE_APP, "consumer_byte_rate", 2048, false),
                new ClientQuotaRecord(List.of(new EntityData("user", null)), "producer_byte_rate", 512, false),
                new ClientQuotaRecord(List.of(new EntityData("user", "bob")), "request_percentage", 50, false),
                new ClientQuotaRecord(List.of(new EntityData("user", "bob")), "request_percentage", 75, false),
                new ClientQuotaRecord(List.of(new EntityData("ip", null)), "connection_creation_rate", 10, false));
        List<ClientQuotaRecord> second = List.of(
                new ClientQuotaRecord(List.of(ALICE_APP.get(1), ALICE_APP.get(0)), "producer_byte_rate", 0, true),
                new ClientQuotaRecord(List.of(new EntityData("user", "bob")), "request_percentage", 0, true),
                new ClientQuotaRecord(List.of(new EntityData("user", "carol")), "consumer_byte_rate", 0, true));

        MetadataImage image = replay(MetadataImage.EMPTY, first, 5);
        org.apache.kafka.image.ClientQuotasImage kafka =
                kafkaReplay(org.apache.kafka.image.ClientQuotasImage.EMPTY, first);
        assertEquals(quotas(kafka), image.clientQuotas().entities());
        assertEquals(4, image.clientQuotas().entities().size());

        MetadataImage after = replay(image, second, 8);
        assertEquals(quotas(kafkaReplay(kafka, second)), after.clientQuotas().entities());
        assertEquals(3, after.clientQuotas().entities().size(), "bob has no quota left");
        assertEquals(
                Map.of("consumer_byte_rate", 2048.0),
                after.clientQuotas().entities().get(new ClientQuotaRecord(ALICE_APP, "k", 0, false).quotaEntity()));

        MetadataDelta untouched = new MetadataDelta(after);
        untouched.replay(new TopicRecord("orders", io.krabka.spi.common.Uuid.fromString("b0hVOgKSTv-TTc7bR6xMpA")));
        assertSame(after.clientQuotas(), untouched.apply(9).clientQuotas(), "a delta without quotas keeps its base's");
    }

    private static MetadataImage replay(MetadataImage base, List<ClientQuotaRecord> records, long offset) {
        MetadataDelta delta = new MetadataDelta(base);
        records.forEach(delta::replay);
        return delta.apply(offset);
    }

    private static org.apache.kafka.image.ClientQuotasImage kafkaReplay(
            org.apache.kafka.image.ClientQuotasImage base, List<ClientQuotaRecord> records) {
        ClientQuotasDelta delta = new ClientQuotasDelta(base);
        records.forEach(record -> delta.replay(kafka(record)));
        return delta.apply();
    }

    private static Map<org.apache.kafka.common.quota.ClientQuotaEntity, Map<String, Double>> quotas(
            org.apache.kafka.image.ClientQuotasImage kafka) {
        Map<org.apache.kafka.common.quota.ClientQuotaEntity, Map<String, Double>> quotas = new HashMap<>();
        kafka.entities().forEach((entity, image) -> quotas.put(entity, image.quotas()));
        return quotas;
    }

    static org.apache.kafka.common.metadata.ClientQuotaRecord kafka(ClientQuotaRecord ours) {
        List<org.apache.kafka.common.metadata.ClientQuotaRecord.EntityData> entity = new ArrayList<>();
        ours.entity()
                .forEach(part -> entity.add(new org.apache.kafka.common.metadata.ClientQuotaRecord.EntityData()
                        .setEntityType(part.entityType())
                        .setEntityName(part.entityName())));
        return new org.apache.kafka.common.metadata.ClientQuotaRecord()
                .setEntity(entity)
                .setKey(ours.key())
                .setValue(ours.value())
                .setRemove(ours.remove());
    }
}
