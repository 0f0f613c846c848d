package io.krabka.it;

import io.krabka.spi.storage.RemoteLogSegmentId;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentState;
import java.io.IOException;
import java.nio.file.Files;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;

/**
 * A segment as Kafka wrote it to its tier: its files, its bytes, its batches as kafka-clients decodes them, and
 * the metadata Kafka's remote log metadata manager would hold for it, derived from the file names and the data.
 *
 * @param files    where Kafka put it
 * @param bytes    the {@code .log} file's bytes
 * @param batches  its batches, in order
 * @param metadata its remote segment metadata, in state COPY_SEGMENT_FINISHED
 */
record KafkaSegment(TierSegment files, byte[] bytes, List<LoggedBatch> batches, RemoteLogSegmentMetadata metadata) {

    /** Copies the batches. */
    KafkaSegment {
        batches = List.copyOf(batches);
    }

    /**
     * Reads and decodes a segment of Kafka's tier.
     *
     * @throws AssertionError if it holds no batch or its batches do not decode
     */
    static KafkaSegment read(TierSegment files, int brokerId) throws IOException {
        byte[] bytes = Files.readAllBytes(files.log());
        List<LoggedBatch> batches = LoggedBatch.decode(bytes, files.log().toString());
        if (batches.isEmpty()) {
            throw new AssertionError("Kafka tiered an empty segment: " + files.log());
        }
        TreeMap<Integer, Long> epochs = new TreeMap<>();
        batches.forEach(b -> epochs.putIfAbsent(b.partitionLeaderEpoch(), b.baseOffset()));
        long maxTimestamp =
                batches.stream().mapToLong(LoggedBatch::maxTimestamp).max().orElseThrow();
        RemoteLogSegmentMetadata metadata = new RemoteLogSegmentMetadata(
                new RemoteLogSegmentId(files.partition(), files.segmentId()),
                files.startOffset(),
                batches.getLast().lastOffset(),
                maxTimestamp,
                brokerId,
                System.currentTimeMillis(),
                bytes.length,
                Optional.empty(),
                RemoteLogSegmentState.COPY_SEGMENT_FINISHED,
                epochs,
                files.txnIndex().isEmpty());
        return new KafkaSegment(files, bytes, batches, metadata);
    }

    /** The segment's last offset. */
    long endOffset() {
        return metadata.endOffset();
    }

    /** The batch that starts at {@code position}, if one does. */
    Optional<LoggedBatch> batchAt(int position) {
        return batches.stream().filter(b -> b.position() == position).findFirst();
    }

    /** The batch that holds {@code offset}, if one does. */
    Optional<LoggedBatch> batchOf(long offset) {
        return batches.stream()
                .filter(b -> b.baseOffset() <= offset && offset <= b.lastOffset())
                .findFirst();
    }

    @Override
    public String toString() {
        return "segment " + files.segmentId() + " [" + files.startOffset() + ", " + metadata.endOffset() + "] ("
                + files.log() + ")";
    }
}
