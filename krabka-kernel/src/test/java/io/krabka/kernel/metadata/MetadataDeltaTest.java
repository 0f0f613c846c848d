package io.krabka.kernel.metadata;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.common.Uuid;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Records replayed into images: each record's effect, and typed errors for records that do not fit. */
class MetadataDeltaTest {

    private static final Uuid ID = Uuid.fromString("b0hVOgKSTv-TTc7bR6xMpA");
    private static final PartitionRegistration ONE = new PartitionRegistration(List.of(1), List.of(1), 1, 0, 0);

    @Test
    void recordsBuildTheImage() {
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        delta.replay(new FeatureLevelRecord("metadata.version", (short) 33));
        delta.replay(new FeatureLevelRecord("group.version", (short) 1));
        delta.replay(new TopicRecord("orders", ID));
        delta.replay(new ConfigRecord(ConfigRecord.TOPIC, "orders", "retention.ms", "5"));
        delta.replay(partition(0));
        delta.replay(partition(1));
        delta.replay(new ConfigRecord(ConfigRecord.BROKER, "", "min.insync.replicas", "1"));
        delta.replay(new ProducerIdsRecord(1, -1, 1000));
        MetadataImage image = delta.apply(7);

        assertEquals(7, image.offset());
        assertEquals(Map.of("metadata.version", (short) 33, "group.version", (short) 1), image.features());
        assertEquals(
                Map.of(0, ONE, 1, ONE),
                Map.copyOf(image.topic("orders").orElseThrow().partitions()));
        assertEquals(image.topic("orders"), image.topic(ID));
        assertEquals(Map.of("retention.ms", "5"), image.topicConfig("orders"));
        assertEquals(Map.of("min.insync.replicas", "1"), image.brokerConfigs());
        assertEquals(1000, image.nextProducerId());

        MetadataDelta next = new MetadataDelta(image);
        next.replay(new FeatureLevelRecord("group.version", (short) 0));
        next.replay(new ConfigRecord(ConfigRecord.TOPIC, "orders", "retention.ms", null));
        next.replay(partition(2));
        MetadataImage grown = next.apply(10);
        assertEquals(Map.of("metadata.version", (short) 33), grown.features(), "level 0 removes a feature");
        assertEquals(Map.of(), grown.topicConfig("orders"));
        assertEquals(3, grown.topic("orders").orElseThrow().partitions().size());

        MetadataDelta removal = new MetadataDelta(grown);
        removal.replay(new ConfigRecord(ConfigRecord.TOPIC, "orders", "segment.ms", "1000"));
        removal.replay(new RemoveTopicRecord(ID));
        MetadataImage removed = removal.apply(12);
        assertTrue(removed.topics().isEmpty());
        assertTrue(removed.topicConfigs().isEmpty(), "a removed topic's configs go with it");
        assertEquals(2, image.topic("orders").orElseThrow().partitions().size(), "the earlier image is unchanged");
    }

    @Test
    void kafkasOtherRecordsAreCountedAndTransactionsApplyWholeOrNotAtAll() {
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        delta.replay(new RetainedRecord(
                RetainedRecordType.REGISTER_BROKER_RECORD, (short) 4, java.nio.ByteBuffer.wrap(new byte[] {1, 2})));
        delta.replay(MetadataTransactionRecord.of(MetadataTransactionRecord.Kind.NO_OP));
        delta.replay(MetadataTransactionRecord.of(MetadataTransactionRecord.Kind.BEGIN));
        delta.replay(new TopicRecord("orders", ID));
        delta.replay(partition(0));
        assertTrue(delta.inTransaction());
        assertTrue(delta.apply(3).topics().isEmpty(), "nothing of an open transaction applies");
        delta.replay(MetadataTransactionRecord.of(MetadataTransactionRecord.Kind.END));
        delta.replay(new RetainedRecord(
                RetainedRecordType.UNFENCE_BROKER_RECORD, (short) 0, java.nio.ByteBuffer.allocate(0)));
        delta.replay(new RetainedRecord(
                RetainedRecordType.REGISTER_BROKER_RECORD, (short) 0, java.nio.ByteBuffer.allocate(0)));
        delta.replay(MetadataTransactionRecord.of(MetadataTransactionRecord.Kind.BEGIN));
        delta.replay(new TopicRecord("aborted", Uuid.fromString("fM8RA2ptTOqMCj6wFHNEQw")));
        delta.replay(MetadataTransactionRecord.of(MetadataTransactionRecord.Kind.ABORT));
        // Kafka's controlled shutdown leaves a single node's partition leaderless; its next start elects it again.
        delta.replay(new PartitionChangeRecord(
                0,
                ID,
                Optional.empty(),
                -1,
                Optional.empty(),
                Optional.empty(),
                Optional.empty(),
                (byte) -1,
                Optional.empty(),
                Optional.empty(),
                Optional.empty()));
        MetadataImage image = delta.apply(12);
        assertEquals(List.of("orders"), List.copyOf(image.topics().keySet()));
        assertEquals(
                new PartitionRegistration(List.of(1), List.of(1), -1, 1, 1),
                image.topic("orders").orElseThrow().partitions().get(0));
        assertEquals(
                Map.of(RetainedRecordType.REGISTER_BROKER_RECORD, 2, RetainedRecordType.UNFENCE_BROKER_RECORD, 1),
                delta.retained());
        assertTrue(!delta.inTransaction());
        assertEquals(
                "EndTransactionRecord outside a metadata transaction",
                assertThrows(
                                MetadataParseException.class,
                                () -> delta.replay(MetadataTransactionRecord.of(MetadataTransactionRecord.Kind.END)))
                        .getMessage());
    }

    @Test
    void brokerAndGroupConfigsAreKeptByResource() {
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        delta.replay(new ConfigRecord(ConfigRecord.BROKER, "", "message.max.bytes", "2000000"));
        delta.replay(new ConfigRecord(ConfigRecord.BROKER, "1", "log.retention.ms", "1000"));
        delta.replay(new ConfigRecord(ConfigRecord.BROKER, "1", "background.threads", "12"));
        delta.replay(new ConfigRecord(ConfigRecord.GROUP, "payments", "consumer.session.timeout.ms", "50000"));
        delta.replay(new ConfigRecord(ConfigRecord.GROUP, "audits", "share.isolation.level", "read_committed"));
        delta.replay(new ConfigRecord(ConfigRecord.GROUP, "audits", "share.isolation.level", null));
        MetadataImage image = delta.apply(4);
        assertEquals(Map.of("message.max.bytes", "2000000"), image.brokerConfigs());
        assertEquals(Map.of("log.retention.ms", "1000", "background.threads", "12"), image.perBrokerConfig(1));
        assertEquals(Map.of(), image.perBrokerConfig(2));
        assertEquals(Map.of("consumer.session.timeout.ms", "50000"), image.groupConfig("payments"));
        assertEquals(Map.of(), image.groupConfig("audits"));
        assertEquals(Set.of("payments"), image.groupConfigs().keySet(), "a group whose last config is gone is gone");

        MetadataDelta next = new MetadataDelta(image);
        next.replay(new ConfigRecord(ConfigRecord.BROKER, "1", "log.retention.ms", null));
        next.replay(new ConfigRecord(ConfigRecord.BROKER, "1", "background.threads", null));
        assertEquals(Map.of(), next.apply(6).perBrokerConfigs());
        assertEquals(image.groupConfigs(), next.apply(6).groupConfigs());
    }

    @Test
    void recordsThatDoNotFitAreTypedErrors() {
        MetadataDelta delta = new MetadataDelta(MetadataImage.EMPTY);
        assertThrows(MetadataParseException.class, () -> delta.replay(partition(0)));
        assertThrows(MetadataParseException.class, () -> delta.replay(new RemoveTopicRecord(ID)));
        assertThrows(
                MetadataParseException.class,
                () -> delta.replay(new ConfigRecord(ConfigRecord.TOPIC, "nope", "retention.ms", "1")));
        assertThrows(MetadataParseException.class, () -> delta.replay(new ConfigRecord((byte) 8, "g", "k", "v")));
        delta.replay(new TopicRecord("orders", ID));
        assertThrows(MetadataParseException.class, () -> delta.replay(new TopicRecord("orders", Uuid.randomUuid())));
        assertThrows(MetadataParseException.class, () -> delta.replay(new TopicRecord("other", ID)));
    }

    private static PartitionRecord partition(int index) {
        return new PartitionRecord(
                index,
                ID,
                List.of(1),
                List.of(1),
                List.of(),
                List.of(),
                1,
                (byte) 0,
                0,
                0,
                List.of(),
                Optional.empty(),
                Optional.empty());
    }
}
