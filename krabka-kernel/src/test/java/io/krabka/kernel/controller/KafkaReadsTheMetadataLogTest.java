package io.krabka.kernel.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.message.CreatePartitionsRequestData;
import org.apache.kafka.common.message.CreatePartitionsRequestData.CreatePartitionsTopic;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.metadata.ConfigRecord;
import org.apache.kafka.common.metadata.FeatureLevelRecord;
import org.apache.kafka.common.metadata.PartitionRecord;
import org.apache.kafka.common.metadata.ProducerIdsRecord;
import org.apache.kafka.common.metadata.RemoveTopicRecord;
import org.apache.kafka.common.metadata.TopicRecord;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.record.internal.FileRecords;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;
import org.apache.kafka.metadata.MetadataRecordSerde;
import org.apache.kafka.server.common.ApiMessageAndVersion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka 4.4 reads the metadata log Krabka's controller wrote: its record classes read the segment (valid batches,
 * offsets in order, the KRaft framing), its {@code MetadataRecordSerde} decodes every record into its generated
 * classes, and those records, replayed, give the topics, partitions, configs, features and producer ids Krabka's
 * image has.
 */
class KafkaReadsTheMetadataLogTest {

    @TempDir
    Path dir;

    @Test
    void kafkaReplaysKrabkasMetadataLogToTheSameImage() throws Exception {
        io.krabka.kernel.metadata.MetadataImage ours;
        try (Controllers controllers = Controllers.formatAndStart(dir, Map.of())) {
            QuorumController controller = controllers.controller();
            CreateTopicsRequestData create = new CreateTopicsRequestData();
            create.topics().add(QuorumControllerTest.topic("orders", 3, 1, Map.of("retention.ms", "1000")));
            create.topics().add(QuorumControllerTest.topic("gone", 1, 1, Map.of()));
            create.topics()
                    .add(QuorumControllerTest.topic("__consumer_offsets", 5, 1, Map.of("cleanup.policy", "compact")));
            controller.createTopics(create).get();
            CreatePartitionsRequestData grow = new CreatePartitionsRequestData();
            grow.topics()
                    .add(new CreatePartitionsTopic()
                            .setName("orders")
                            .setCount(4)
                            .setAssignments(null));
            controller.createPartitions(grow).get();
            controller
                    .deleteTopics(new DeleteTopicsRequestData().setTopicNames(List.of("gone")))
                    .get();
            controller.allocateProducerIds(Controllers.NODE_ID).get();
            ours = controller.image();
        }

        List<ApiMessageAndVersion> records = new ArrayList<>();
        long expectedOffset = 0;
        MetadataRecordSerde serde = new MetadataRecordSerde();
        try (FileRecords segment = FileRecords.open(new File(dir.resolve("__cluster_metadata-0")
                .resolve("00000000000000000000.log")
                .toString()))) {
            for (RecordBatch batch : segment.batches()) {
                batch.ensureValid();
                assertEquals(expectedOffset, batch.baseOffset());
                assertEquals(RecordBatch.MAGIC_VALUE_V2, batch.magic());
                assertEquals(1, batch.partitionLeaderEpoch(), "the first leader epoch");
                assertEquals(RecordBatch.NO_PRODUCER_ID, batch.producerId());
                assertFalse(batch.isControlBatch());
                for (Record record : batch) {
                    assertFalse(record.hasKey());
                    records.add(serde.read(new ByteBufferAccessor(record.value()), record.valueSize()));
                }
                expectedOffset = batch.nextOffset();
            }
        }
        assertEquals(ours.offset() + 1, expectedOffset);
        assertTrue(
                records.stream()
                        .filter(r -> r.message() instanceof PartitionRecord)
                        .allMatch(r -> r.version() == 2),
                "PartitionRecord v2 at metadata.version 4.4-IV2");

        // Kafka's image classes cannot load here (kafka-metadata splits kafka-clients' error package, a module on
        // the module path), so the test replays Kafka's decoded records itself.
        Map<String, Short> features = new HashMap<>();
        Map<org.apache.kafka.common.Uuid, String> names = new HashMap<>();
        Map<String, Map<Integer, PartitionRecord>> partitions = new TreeMap<>();
        Map<String, Map<String, String>> configs = new HashMap<>();
        long nextProducerId = 0;
        for (ApiMessageAndVersion record : records) {
            switch (record.message()) {
                case FeatureLevelRecord feature -> features.put(feature.name(), feature.featureLevel());
                case TopicRecord topic -> {
                    names.put(topic.topicId(), topic.name());
                    partitions.put(topic.name(), new TreeMap<>());
                }
                case PartitionRecord partition ->
                    partitions.get(names.get(partition.topicId())).put(partition.partitionId(), partition);
                case ConfigRecord config ->
                    configs.computeIfAbsent(
                                    config.resourceType() + ":" + config.resourceName(), resource -> new HashMap<>())
                            .put(config.name(), config.value());
                case RemoveTopicRecord remove -> {
                    String name = names.remove(remove.topicId());
                    partitions.remove(name);
                    configs.remove(ConfigResource.Type.TOPIC.id() + ":" + name);
                }
                case ProducerIdsRecord producerIds -> nextProducerId = producerIds.nextProducerId();
                default -> throw new AssertionError("unexpected record " + record);
            }
        }

        assertEquals(ours.features(), features);
        assertEquals(ours.nextProducerId(), nextProducerId);
        assertEquals(ours.topics().keySet(), partitions.keySet());
        for (io.krabka.kernel.metadata.TopicImage topic : ours.topics().values()) {
            assertEquals(
                    topic.name(),
                    names.get(new org.apache.kafka.common.Uuid(
                            topic.id().mostSignificantBits(), topic.id().leastSignificantBits())));
            Map<Integer, PartitionRecord> theirs = partitions.get(topic.name());
            assertEquals(topic.partitions().keySet(), theirs.keySet());
            topic.partitions().forEach((index, registration) -> {
                PartitionRecord partition = theirs.get(index);
                assertEquals(registration.replicas(), partition.replicas());
                assertEquals(registration.isr(), partition.isr());
                assertEquals(registration.leader(), partition.leader());
                assertEquals(registration.leaderEpoch(), partition.leaderEpoch());
                assertEquals(registration.partitionEpoch(), partition.partitionEpoch());
                assertEquals(
                        List.of(Controllers.DIRECTORY_ID.toString()),
                        partition.directories().stream().map(Object::toString).toList());
            });
            assertEquals(
                    ours.topicConfig(topic.name()),
                    configs.getOrDefault(ConfigResource.Type.TOPIC.id() + ":" + topic.name(), Map.of()));
        }
        assertEquals(ours.brokerConfigs(), configs.get(ConfigResource.Type.BROKER.id() + ":"));
    }
}
