package io.krabka.plugin.rsm.local;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.LogSegmentData;
import io.krabka.spi.storage.RemoteLogSegmentId;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.TreeMap;

/** Local segment files and their metadata, for tests. */
final class Segments {
    /** The ids of the example listing in Kafka's docs/ops.html. */
    static final Uuid TOPIC_ID = Uuid.fromString("jF8s79t9SrG_PNqlwv7bAA");

    static final Uuid SEGMENT_ID = Uuid.fromString("knnxbs3FSRyKdPcSAOQC-w");
    static final TopicIdPartition PARTITION = new TopicIdPartition(TOPIC_ID, "tieredTopic", 0);

    private Segments() {}

    /** A segment's local files, with the bytes written to each. */
    record Local(
            LogSegmentData data,
            byte[] log,
            byte[] offsetIndex,
            byte[] timeIndex,
            Optional<byte[]> transactionIndex,
            byte[] producerSnapshot,
            byte[] leaderEpochCheckpoint) {

        /** The bytes expected from a fetch of an index. */
        byte[] index(io.krabka.spi.storage.IndexType type) {
            return switch (type) {
                case OFFSET -> offsetIndex;
                case TIMESTAMP -> timeIndex;
                case PRODUCER_SNAPSHOT -> producerSnapshot;
                case TRANSACTION -> transactionIndex.orElseThrow();
                case LEADER_EPOCH -> leaderEpochCheckpoint;
            };
        }
    }

    static RemoteLogSegmentMetadata metadata(TopicIdPartition partition, Uuid id, long startOffset, long size) {
        return new RemoteLogSegmentMetadata(
                new RemoteLogSegmentId(partition, id),
                startOffset,
                startOffset + 9,
                1_000L,
                0,
                2_000L,
                Math.toIntExact(size),
                new TreeMap<>(Map.of(0, startOffset)),
                false);
    }

    static RemoteLogSegmentMetadata metadata(Uuid id, long startOffset, long size) {
        return metadata(PARTITION, id, startOffset, size);
    }

    /** Random bytes, the same for the same seed. */
    static byte[] bytes(long seed, int size) {
        byte[] bytes = new byte[size];
        new Random(seed).nextBytes(bytes);
        return bytes;
    }

    /** Writes the files of a segment named {@code name} under {@code dir}, each with distinct content. */
    static Local write(Path dir, String name, byte[] log, boolean withTransactionIndex) throws IOException {
        Files.createDirectories(dir);
        long seed = name.hashCode();
        byte[] offsetIndex = bytes(seed + 1, 80);
        byte[] timeIndex = bytes(seed + 2, 120);
        byte[] snapshot = bytes(seed + 3, 52);
        byte[] transactionIndex = bytes(seed + 4, 34);
        byte[] epochs = ("0\n1\n0 " + name.length() + "\n").getBytes(StandardCharsets.UTF_8);
        Path logFile = Files.write(dir.resolve(name + ".log"), log);
        Path offsetFile = Files.write(dir.resolve(name + ".index"), offsetIndex);
        Path timeFile = Files.write(dir.resolve(name + ".timeindex"), timeIndex);
        Path snapshotFile = Files.write(dir.resolve(name + ".snapshot"), snapshot);
        Optional<Path> transactionFile = withTransactionIndex
                ? Optional.of(Files.write(dir.resolve(name + ".txnindex"), transactionIndex))
                : Optional.empty();
        LogSegmentData data = new LogSegmentData(
                logFile, offsetFile, timeFile, transactionFile, snapshotFile, ByteBuffer.wrap(epochs));
        return new Local(
                data,
                log,
                offsetIndex,
                timeIndex,
                withTransactionIndex ? Optional.of(transactionIndex) : Optional.empty(),
                snapshot,
                epochs);
    }
}
