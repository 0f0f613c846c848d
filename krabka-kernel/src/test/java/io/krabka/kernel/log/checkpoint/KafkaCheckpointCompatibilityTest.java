package io.krabka.kernel.log.checkpoint;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.common.TopicPartition;
import io.krabka.spi.common.Uuid;
import java.io.BufferedWriter;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStreamWriter;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;
import org.apache.kafka.metadata.properties.MetaPropertiesVersion;
import org.apache.kafka.metadata.properties.PropertiesUtils;
import org.apache.kafka.server.common.CheckpointFile.CheckpointWriteBuffer;
import org.apache.kafka.storage.internals.checkpoint.CleanShutdownFileHandler;
import org.apache.kafka.storage.internals.log.LogDirFailureChannel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Kafka 4.4's own checkpoint classes judge the files: each file Krabka writes is byte for byte the one Kafka writes
 * for the same content (meta.properties up to the date line {@code Properties.store} adds), Kafka reads Krabka's,
 * and Krabka reads Kafka's.
 */
class KafkaCheckpointCompatibilityTest {

    private static final Uuid TOPIC_ID = Uuid.fromString("QZ1ZeOxcR4-SJdUh0wZVPw");
    private static final Uuid DIRECTORY_ID = Uuid.fromString("6mT3sOmgSpC5vlXSWi7Z2A");

    @TempDir
    Path logDir;

    private final LogDirFailureChannel failures = new LogDirFailureChannel(10);

    @Test
    void offsetCheckpointsAreTheSameBytesAndReadBothWays() throws IOException {
        Map<TopicPartition, Long> offsets = new LinkedHashMap<>();
        offsets.put(new TopicPartition("orders", 0), 1_234L);
        offsets.put(new TopicPartition("orders", 11), 0L);
        offsets.put(new TopicPartition("__consumer_offsets", 49), 9_000_000_000L);
        Map<org.apache.kafka.common.TopicPartition, Long> kafkaOffsets = new LinkedHashMap<>();
        offsets.forEach((tp, offset) -> kafkaOffsets.put(kafka(tp), offset));

        Path theirsFile = logDir.resolve("theirs").resolve(OffsetCheckpointFile.RECOVERY_POINT_CHECKPOINT_FILE);
        Files.createDirectories(theirsFile.getParent());
        var theirs =
                new org.apache.kafka.storage.internals.checkpoint.OffsetCheckpointFile(theirsFile.toFile(), failures);
        theirs.write(kafkaOffsets);
        Path oursFile = logDir.resolve(OffsetCheckpointFile.RECOVERY_POINT_CHECKPOINT_FILE);
        new OffsetCheckpointFile(oursFile).write(offsets);

        assertArrayEquals(Files.readAllBytes(theirsFile), Files.readAllBytes(oursFile));
        assertEquals(offsets, new OffsetCheckpointFile(theirsFile).read());
        assertEquals(
                kafkaOffsets,
                new org.apache.kafka.storage.internals.checkpoint.OffsetCheckpointFile(oursFile.toFile(), failures)
                        .read());
    }

    @Test
    void leaderEpochCheckpointsAreTheSameBytesAndReadBothWays() throws IOException {
        List<EpochEntry> epochs =
                List.of(new EpochEntry(0, 0), new EpochEntry(3, 1_500), new EpochEntry(7, 9_000_000_000L));
        List<org.apache.kafka.storage.internals.log.EpochEntry> kafkaEpochs = epochs.stream()
                .map(e -> new org.apache.kafka.storage.internals.log.EpochEntry(e.epoch(), e.startOffset()))
                .toList();

        Path theirsFile = LeaderEpochCheckpointFile.newFile(Files.createDirectories(logDir.resolve("theirs-0")));
        new org.apache.kafka.storage.internals.checkpoint.LeaderEpochCheckpointFile(theirsFile.toFile(), failures)
                .write(kafkaEpochs);
        Path oursFile = LeaderEpochCheckpointFile.newFile(Files.createDirectories(logDir.resolve("ours-0")));
        new LeaderEpochCheckpointFile(oursFile).write(epochs);

        assertArrayEquals(Files.readAllBytes(theirsFile), Files.readAllBytes(oursFile));
        assertEquals(epochs, new LeaderEpochCheckpointFile(theirsFile).read());
        assertEquals(
                kafkaEpochs,
                new org.apache.kafka.storage.internals.checkpoint.LeaderEpochCheckpointFile(oursFile.toFile(), failures)
                        .read());
    }

    @Test
    void theRemoteLeaderEpochIndexIsTheBytesKafkasRemoteLogManagerMakes() throws IOException {
        List<EpochEntry> epochs = List.of(new EpochEntry(2, 100), new EpochEntry(5, 4_000));
        // As RemoteLogManager builds the leader-epoch index it hands to the RemoteStorageManager.
        ByteArrayOutputStream theirs = new ByteArrayOutputStream();
        try (BufferedWriter writer = new BufferedWriter(new OutputStreamWriter(theirs, StandardCharsets.UTF_8))) {
            new CheckpointWriteBuffer<>(
                            writer,
                            0,
                            org.apache.kafka.storage.internals.checkpoint.LeaderEpochCheckpointFile.FORMATTER)
                    .write(epochs.stream()
                            .map(e -> new org.apache.kafka.storage.internals.log.EpochEntry(e.epoch(), e.startOffset()))
                            .toList());
        }
        ByteBuffer ours = LeaderEpochCheckpointFile.toByteBuffer(epochs);
        byte[] oursBytes = new byte[ours.remaining()];
        ours.get(oursBytes);
        assertArrayEquals(theirs.toByteArray(), oursBytes);
        assertEquals(epochs, LeaderEpochCheckpointFile.fromByteBuffer(ByteBuffer.wrap(theirs.toByteArray()), "remote"));
    }

    @Test
    void partitionMetadataIsTheSameBytesAndReadBothWays() throws IOException {
        Path theirsFile = PartitionMetadataFile.newFile(Files.createDirectories(logDir.resolve("theirs-0")));
        var theirs =
                new org.apache.kafka.storage.internals.checkpoint.PartitionMetadataFile(theirsFile.toFile(), failures);
        theirs.record(kafka(TOPIC_ID));
        theirs.maybeFlush();
        Path oursFile = PartitionMetadataFile.newFile(Files.createDirectories(logDir.resolve("ours-0")));
        new PartitionMetadataFile(oursFile).write(TOPIC_ID);

        assertArrayEquals(Files.readAllBytes(theirsFile), Files.readAllBytes(oursFile));
        assertEquals(new PartitionMetadata(0, TOPIC_ID), new PartitionMetadataFile(theirsFile).read());
        var read = new org.apache.kafka.storage.internals.checkpoint.PartitionMetadataFile(oursFile.toFile(), failures)
                .read();
        assertEquals(0, read.version());
        assertEquals(kafka(TOPIC_ID), read.topicId());
    }

    @Test
    void metaPropertiesAreTheSameTextAndReadBothWays() throws IOException {
        for (Optional<Uuid> directoryId : List.of(Optional.of(DIRECTORY_ID), Optional.<Uuid>empty())) {
            MetaProperties ours = new MetaProperties("MkU3OEVBNTcwNTJENDM2Qg", 7, directoryId);
            var theirs = new org.apache.kafka.metadata.properties.MetaProperties.Builder()
                    .setVersion(MetaPropertiesVersion.V1)
                    .setClusterId("MkU3OEVBNTcwNTJENDM2Qg")
                    .setNodeId(7)
                    .setDirectoryId(directoryId.map(KafkaCheckpointCompatibilityTest::kafka))
                    .build();
            Path theirsFile = logDir.resolve("theirs.properties");
            PropertiesUtils.writePropertiesFile(theirs.toProperties(), theirsFile.toString(), true);
            Path oursFile = logDir.resolve(MetaProperties.META_PROPERTIES_FILE_NAME);
            ours.write(oursFile);

            List<String> theirLines = new ArrayList<>(Files.readAllLines(theirsFile));
            List<String> ourLines = new ArrayList<>(Files.readAllLines(oursFile));
            assertTrue(theirLines.get(1).startsWith("#") && ourLines.get(1).startsWith("#"));
            theirLines.remove(1); // the date line Properties.store writes
            ourLines.remove(1);
            assertEquals(theirLines, ourLines);

            assertEquals(ours, MetaProperties.read(theirsFile));
            var read = new org.apache.kafka.metadata.properties.MetaProperties.Builder(
                            PropertiesUtils.readPropertiesFile(oursFile.toString()))
                    .build();
            assertEquals(theirs, read);
            assertEquals(OptionalInt.of(7), read.nodeId());
        }
    }

    @Test
    void theCleanShutdownMarkerIsTheSameBytesAndReadBothWays() throws Exception {
        Path theirsDir = Files.createDirectories(logDir.resolve("theirs"));
        new CleanShutdownFileHandler(theirsDir.toString()).write(1_234_567_890_123L);
        CleanShutdownFile ours = new CleanShutdownFile(logDir);
        ours.write(1_234_567_890_123L);

        Path theirsFile = theirsDir.resolve(CleanShutdownFile.CLEAN_SHUTDOWN_FILE_NAME);
        assertArrayEquals(Files.readAllBytes(theirsFile), Files.readAllBytes(ours.file()));
        assertEquals(OptionalLong.of(1_234_567_890_123L), new CleanShutdownFile(theirsDir).read());
        assertEquals(OptionalLong.of(1_234_567_890_123L), new CleanShutdownFileHandler(logDir.toString()).read());
    }

    private static org.apache.kafka.common.TopicPartition kafka(TopicPartition tp) {
        return new org.apache.kafka.common.TopicPartition(tp.topic(), tp.partition());
    }

    private static org.apache.kafka.common.Uuid kafka(Uuid uuid) {
        return new org.apache.kafka.common.Uuid(uuid.mostSignificantBits(), uuid.leastSignificantBits());
    }
}
