package io.krabka.kernel.controller;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.metadata.FeatureLevelRecord;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.MetadataRecord;
import io.krabka.kernel.metadata.MetadataRecordSerde;
import io.krabka.kernel.metadata.MetadataTransactionRecord;
import io.krabka.kernel.metadata.PartitionRecord;
import io.krabka.kernel.metadata.PartitionRegistration;
import io.krabka.kernel.metadata.RetainedRecord;
import io.krabka.kernel.metadata.RetainedRecordType;
import io.krabka.kernel.metadata.TopicRecord;
import io.krabka.kernel.record.Compression;
import io.krabka.kernel.record.RecordBatchBuilder;
import io.krabka.kernel.record.TimestampType;
import io.krabka.spi.common.Uuid;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The controller on a metadata log another controller left, as Kafka's leaves it: a snapshot that supersedes the log
 * below it, records Krabka does not serve, a metadata transaction left open, a partition left leaderless.
 */
class MetadataSnapshotTest {

    private static final Uuid SNAPSHOT_TOPIC = Uuid.fromString("b0hVOgKSTv-TTc7bR6xMpA");

    @TempDir
    Path dir;

    private Controllers controllers;

    @BeforeEach
    void start() throws Exception {
        controllers = Controllers.formatAndStart(dir, Map.of());
    }

    @AfterEach
    void stop() throws Exception {
        controllers.close();
    }

    @Test
    void theLatestSnapshotAndTheLogAfterItAreReplayedAndALeaderlessPartitionIsElected() throws Exception {
        create("in-the-log-below");
        MetadataImage before = controllers.controller().image();
        controllers.controller().close();
        long end = before.offset() + 1;
        List<MetadataRecord> records = new java.util.ArrayList<>();
        before.features().forEach((name, level) -> records.add(new FeatureLevelRecord(name, level)));
        records.add(new TopicRecord("from-the-snapshot", SNAPSHOT_TOPIC));
        // As Kafka's controlled shutdown leaves it: no leader, the node still the ISR.
        records.add(new PartitionRecord(
                0,
                SNAPSHOT_TOPIC,
                List.of(1),
                List.of(1),
                List.of(),
                List.of(),
                -1,
                (byte) 0,
                4,
                7,
                List.of(),
                Optional.empty(),
                Optional.empty()));
        // As Kafka 4.4's, eligible leader replicas on: the ISR empty, the node its ELR.
        records.add(new PartitionRecord(
                1,
                SNAPSHOT_TOPIC,
                List.of(1),
                List.of(),
                List.of(),
                List.of(),
                -1,
                (byte) 0,
                2,
                3,
                List.of(),
                Optional.of(List.of(1)),
                Optional.of(List.of(1))));
        records.add(new RetainedRecord(RetainedRecordType.UNFENCE_BROKER_RECORD, (short) 0, ByteBuffer.wrap(new byte[] {
            0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 9, 0
        })));
        Path partition = dir.resolve(MetadataLog.DIRECTORY);
        Files.write(partition.resolve(String.format("%020d-%010d.checkpoint", end, 1)), batch(0, records));
        // An older snapshot is not the one replayed.
        Files.write(
                partition.resolve(String.format("%020d-%010d.checkpoint", 1, 1)),
                batch(0, List.of(new TopicRecord("older", Uuid.fromString("fM8RA2ptTOqMCj6wFHNEQw")))));

        MetadataImage image = controllers.restart().image();
        assertEquals(List.of("from-the-snapshot"), List.copyOf(image.topics().keySet()));
        assertEquals(
                new PartitionRegistration(List.of(1), List.of(1), 1, 5, 8),
                image.topic("from-the-snapshot").orElseThrow().partitions().get(0),
                "elected with a new leader epoch");
        assertEquals(
                new PartitionRegistration(List.of(1), List.of(1), 1, 3, 4),
                image.topic("from-the-snapshot").orElseThrow().partitions().get(1),
                "elected from the ELR");
        assertEquals(end + 1, image.offset(), "the two elections are the first batch after the snapshot");

        create("after-the-snapshot");
        MetadataImage again = controllers.restart().image();
        assertEquals(
                Map.of("from-the-snapshot", 1, "after-the-snapshot", 1),
                Map.of(
                        "from-the-snapshot",
                        again.topic("from-the-snapshot")
                                        .orElseThrow()
                                        .partitions()
                                        .size()
                                - 1,
                        "after-the-snapshot",
                        again.topic("after-the-snapshot")
                                .orElseThrow()
                                .partitions()
                                .size()));
        assertEquals(controllers.controller().image().offset(), again.offset());
        assertEquals(
                1,
                again.topic("from-the-snapshot")
                        .orElseThrow()
                        .partitions()
                        .get(0)
                        .leader());
    }

    @Test
    void aTransactionTheLogEndsInIsAbortedAndNotApplied() throws Exception {
        controllers.controller().close();
        MetadataLog log = MetadataLog.open(
                dir,
                new io.krabka.kernel.scheduler.KafkaScheduler(1, "test-"),
                java.time.Clock.systemUTC(),
                new io.krabka.kernel.log.LogDirFailureChannel());
        log.append(List.of(
                new io.krabka.kernel.metadata.MetadataRecordAndVersion(
                        MetadataTransactionRecord.of(MetadataTransactionRecord.Kind.BEGIN), (short) 0),
                new io.krabka.kernel.metadata.MetadataRecordAndVersion(
                        new TopicRecord("half", SNAPSHOT_TOPIC), (short) 0)));
        long abortAt = log.endOffset();
        log.close();

        MetadataImage image = controllers.restart().image();
        assertTrue(image.topics().isEmpty());
        assertEquals(abortAt, image.offset(), "the abort appended");
        create("half");
        assertEquals(
                1,
                controllers
                        .restart()
                        .image()
                        .topic("half")
                        .orElseThrow()
                        .partitions()
                        .size());
    }

    private void create(String topic) throws Exception {
        CreateTopicsRequestData request = new CreateTopicsRequestData().setTimeoutMs(1000);
        request.topics()
                .add(new CreateTopicsRequestData.CreatableTopic()
                        .setName(topic)
                        .setNumPartitions(1)
                        .setReplicationFactor((short) 1));
        assertEquals(
                0,
                controllers
                        .controller()
                        .createTopics(request)
                        .get()
                        .topics()
                        .find(topic)
                        .errorCode());
    }

    private static byte[] batch(long baseOffset, List<MetadataRecord> records) throws IOException {
        RecordBatchBuilder batch =
                new RecordBatchBuilder(Compression.NONE, TimestampType.CREATE_TIME, baseOffset).partitionLeaderEpoch(1);
        for (MetadataRecord record : records) {
            batch.append(
                    0,
                    (ByteBuffer) null,
                    MetadataRecordSerde.serialize(record, record.highestSupportedVersion()),
                    List.of());
        }
        ByteBuffer bytes = batch.build();
        byte[] array = new byte[bytes.remaining()];
        bytes.get(array);
        return array;
    }
}
