package io.krabka.plugin.rlmm.topic;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.CustomMetadata;
import io.krabka.spi.storage.RemoteLogMetadata;
import io.krabka.spi.storage.RemoteLogSegmentId;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentMetadataUpdate;
import io.krabka.spi.storage.RemoteLogSegmentState;
import io.krabka.spi.storage.RemotePartitionDeleteMetadata;
import io.krabka.spi.storage.RemotePartitionDeleteState;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.kafka.server.log.remote.metadata.storage.RemoteLogMetadataTopicPartitioner;
import org.apache.kafka.server.log.remote.metadata.storage.RemoteLogSegmentMetadataSnapshot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Our serde against Apache Kafka's own {@code RemoteLogMetadataSerde} (kafka-storage 4.4.0): the bytes of every
 * record type are the same both ways, and our partitioner picks Kafka's metadata partition.
 */
class GoldenBytesTest {

    private static final org.apache.kafka.server.log.remote.metadata.storage.serialization.RemoteLogMetadataSerde
            KAFKA = new org.apache.kafka.server.log.remote.metadata.storage.serialization.RemoteLogMetadataSerde();
    private static final TopicIdPartition FOO =
            new TopicIdPartition(Uuid.fromString("AXt4C6DESxGBVtaM1WsYZA"), "foo", 3);
    private static final TopicIdPartition UNICODE = new TopicIdPartition(Uuid.randomUuid(), "tópico.ü_-1", 0);

    static Stream<RemoteLogMetadata> records() {
        RemoteLogSegmentId id = new RemoteLogSegmentId(FOO, Uuid.fromString("4advvSfUS1qd_EpnJfwhdQ"));
        TreeMap<Integer, Long> epochs = new TreeMap<>();
        epochs.put(0, 0L);
        epochs.put(3, 20L);
        epochs.put(7, 80L);
        return Stream.of(
                new RemoteLogSegmentMetadata(
                        id, 0, 100, 1_700_000_000_123L, 1, 1_700_000_000_001L, 1 << 20, new TreeMap<>(epochs), false),
                new RemoteLogSegmentMetadata(
                        id, 0, 100, -1, 1, 1_700_000_000_001L, 1 << 20, new TreeMap<>(epochs), true),
                new RemoteLogSegmentMetadata(
                        new RemoteLogSegmentId(UNICODE, Uuid.randomUuid()),
                        5,
                        5,
                        0,
                        2_000_000,
                        0,
                        0,
                        Optional.of(new CustomMetadata(new byte[] {(byte) 0xff, 0, 42})),
                        RemoteLogSegmentState.COPY_SEGMENT_FINISHED,
                        new TreeMap<>(Map.of(9, 5L)),
                        true),
                new RemoteLogSegmentMetadataUpdate(
                        id, 1_700_000_000_002L, Optional.empty(), RemoteLogSegmentState.COPY_SEGMENT_FINISHED, 1),
                new RemoteLogSegmentMetadataUpdate(
                        id,
                        1_700_000_000_003L,
                        Optional.of(new CustomMetadata(new byte[128])),
                        RemoteLogSegmentState.DELETE_SEGMENT_STARTED,
                        4),
                new RemoteLogSegmentMetadataUpdate(
                        id,
                        Long.MAX_VALUE,
                        Optional.of(new CustomMetadata(new byte[0])),
                        RemoteLogSegmentState.DELETE_SEGMENT_FINISHED,
                        Integer.MAX_VALUE),
                new RemotePartitionDeleteMetadata(FOO, RemotePartitionDeleteState.DELETE_PARTITION_MARKED, 7, 0),
                new RemotePartitionDeleteMetadata(UNICODE, RemotePartitionDeleteState.DELETE_PARTITION_STARTED, 8, 1),
                new RemotePartitionDeleteMetadata(FOO, RemotePartitionDeleteState.DELETE_PARTITION_FINISHED, 9, 2));
    }

    @ParameterizedTest
    @MethodSource("records")
    void writesTheBytesKafkaWrites(RemoteLogMetadata metadata) {
        assertArrayEquals(KAFKA.serialize(KafkaTypes.kafka(metadata)), RemoteLogMetadataSerde.serialize(metadata));
    }

    @ParameterizedTest
    @MethodSource("records")
    void readsWhatKafkaWrites(RemoteLogMetadata metadata) {
        assertEquals(metadata, RemoteLogMetadataSerde.deserialize(KAFKA.serialize(KafkaTypes.kafka(metadata))));
    }

    @ParameterizedTest
    @MethodSource("records")
    void kafkaReadsWhatWeWrite(RemoteLogMetadata metadata) {
        assertEquals(metadata, KafkaTypes.krabka(KAFKA.deserialize(RemoteLogMetadataSerde.serialize(metadata))));
    }

    @Test
    void segmentSnapshotRecordIsKafkas() {
        for (RemoteLogMetadata metadata : records().toList()) {
            if (metadata instanceof RemoteLogSegmentMetadata segment) {
                byte[] kafka = KAFKA.serialize(RemoteLogSegmentMetadataSnapshot.create(
                        (org.apache.kafka.server.log.remote.storage.RemoteLogSegmentMetadata)
                                KafkaTypes.kafka(segment)));
                assertArrayEquals(kafka, RemoteLogMetadataSerde.serializeSnapshotSegment(segment));
                assertEquals(
                        segment, RemoteLogMetadataSerde.deserializeSnapshotSegment(kafka, segment.topicIdPartition()));
            }
        }
    }

    @Test
    void refusesWhatIsNotARecord() {
        byte[] valid = RemoteLogMetadataSerde.serialize(records().findFirst().orElseThrow());
        byte[] frameZero = valid.clone();
        frameZero[0] = 0;
        byte[] longer = Arrays.copyOf(valid, valid.length + 1);
        byte[] shorter = Arrays.copyOf(valid, valid.length - 1);
        byte[] snapshot = RemoteLogMetadataSerde.serializeSnapshotSegment(
                (RemoteLogSegmentMetadata) records().findFirst().orElseThrow());
        for (byte[] bad : List.of(frameZero, longer, shorter, snapshot, new byte[] {1, 9, 0}, new byte[0])) {
            assertThrows(MetadataRecordException.class, () -> RemoteLogMetadataSerde.deserialize(bad));
        }
    }

    @Test
    void partitionsAsKafka() {
        Random random = new Random(405);
        List<TopicIdPartition> partitions = new ArrayList<>(List.of(FOO, UNICODE));
        for (int i = 0; i < 2_000; i++) {
            partitions.add(
                    new TopicIdPartition(new Uuid(random.nextLong(), random.nextLong()), "t", random.nextInt(1_000)));
        }
        for (int count : new int[] {1, 3, 50, 51, 1_000}) {
            RemoteLogMetadataTopicPartitioner kafka = new RemoteLogMetadataTopicPartitioner(count);
            MetadataTopicPartitioner ours = new MetadataTopicPartitioner(count);
            for (TopicIdPartition partition : partitions) {
                assertEquals(
                        kafka.metadataPartition(KafkaTypes.kafka(partition)),
                        ours.metadataPartition(partition),
                        partition + " of " + count);
            }
        }
    }
}
