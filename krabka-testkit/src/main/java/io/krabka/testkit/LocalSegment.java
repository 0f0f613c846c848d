package io.krabka.testkit;

import io.krabka.spi.storage.IndexType;
import io.krabka.spi.storage.LogSegmentData;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The local files of one rolled segment, as the broker hands them to a copy, and the bytes every fetch of it must
 * return. Contents come from {@link PatternBytes}, seeded by the segment id and the attempt number, so no two
 * segments, files or copy attempts share bytes and a fetch of the wrong one cannot pass.
 */
final class LocalSegment {

    // Plausible sizes: offset index entries are 8 bytes, time index entries 12, aborted transactions 34.
    private static final int OFFSET_INDEX_BYTES = 8 * 64;
    private static final int TIME_INDEX_BYTES = 12 * 64;
    private static final int TXN_INDEX_BYTES = 34 * 3;
    private static final int SNAPSHOT_BYTES = 97;

    private final RemoteLogSegmentMetadata metadata;
    private final Path dir;
    private final long seed;
    private final boolean transactionIndex;
    private final byte[] logSha256;

    private LocalSegment(
            RemoteLogSegmentMetadata metadata, Path dir, long seed, boolean transactionIndex, byte[] logSha256) {
        this.metadata = metadata;
        this.dir = dir;
        this.seed = seed;
        this.transactionIndex = transactionIndex;
        this.logSha256 = logSha256;
    }

    /**
     * Writes the files of a segment under {@code root}. The log has the metadata's size; an empty segment also has
     * empty offset and time indexes, as Kafka leaves them.
     *
     * @param transactionIndex whether the segment has a {@code .txnindex}
     * @param attempt          tells apart the contents of copy attempts that share the metadata's id
     */
    static LocalSegment write(Path root, RemoteLogSegmentMetadata metadata, boolean transactionIndex, int attempt)
            throws IOException {
        long seed = metadata.remoteLogSegmentId().id().mostSignificantBits()
                ^ Long.rotateLeft(metadata.remoteLogSegmentId().id().leastSignificantBits(), 17)
                ^ (attempt + 1) * 0x2545F4914F6CDD1DL;
        Path dir = Files.createDirectories(
                root.resolve(metadata.remoteLogSegmentId().id() + "-" + attempt));
        LocalSegment segment = new LocalSegment(
                metadata,
                dir,
                seed,
                transactionIndex,
                PatternBytes.write(dir.resolve("segment.log"), seed, metadata.segmentSizeInBytes()));
        for (IndexType type : IndexType.values()) {
            if (type != IndexType.LEADER_EPOCH && (type != IndexType.TRANSACTION || transactionIndex)) {
                Files.write(segment.path(type), segment.index(type).orElseThrow());
            }
        }
        return segment;
    }

    /** The segment's metadata, in state {@code COPY_SEGMENT_STARTED}. */
    RemoteLogSegmentMetadata metadata() {
        return metadata;
    }

    /** The files to copy. */
    LogSegmentData data() {
        return new LogSegmentData(
                path(null),
                path(IndexType.OFFSET),
                path(IndexType.TIMESTAMP),
                transactionIndex ? Optional.of(path(IndexType.TRANSACTION)) : Optional.empty(),
                path(IndexType.PRODUCER_SNAPSHOT),
                ByteBuffer.wrap(index(IndexType.LEADER_EPOCH).orElseThrow()));
    }

    /**
     * The files to copy with one of them gone, as when retention removes a segment during its copy: one entry per
     * required file, named for the file that is missing.
     */
    Map<String, LogSegmentData> dataWithOneFileMissing() {
        LogSegmentData whole = data();
        Path gone = dir.resolve("deleted-by-retention");
        Map<String, LogSegmentData> variants = new LinkedHashMap<>();
        variants.put(
                "log segment",
                new LogSegmentData(
                        gone,
                        whole.offsetIndex(),
                        whole.timeIndex(),
                        whole.transactionIndex(),
                        whole.producerSnapshotIndex(),
                        whole.leaderEpochIndex()));
        variants.put(
                "offset index",
                new LogSegmentData(
                        whole.logSegment(),
                        gone,
                        whole.timeIndex(),
                        whole.transactionIndex(),
                        whole.producerSnapshotIndex(),
                        whole.leaderEpochIndex()));
        variants.put(
                "time index",
                new LogSegmentData(
                        whole.logSegment(),
                        whole.offsetIndex(),
                        gone,
                        whole.transactionIndex(),
                        whole.producerSnapshotIndex(),
                        whole.leaderEpochIndex()));
        variants.put(
                "producer snapshot",
                new LogSegmentData(
                        whole.logSegment(),
                        whole.offsetIndex(),
                        whole.timeIndex(),
                        whole.transactionIndex(),
                        gone,
                        whole.leaderEpochIndex()));
        return variants;
    }

    /**
     * The files to copy with one index unreadable: a directory where the file should be, which exists and opens
     * but fails every read, so a copy that streams the log first fails part-way. One entry per index file, named
     * for the file that cannot be read.
     */
    Map<String, LogSegmentData> dataWithOneFileUnreadable() throws IOException {
        LogSegmentData whole = data();
        Path unreadable = Files.createDirectories(dir.resolve("unreadable"));
        if (!Files.exists(unreadable.resolve("content"))) {
            Files.write(unreadable.resolve("content"), new byte[] {1});
        }
        Map<String, LogSegmentData> variants = new LinkedHashMap<>();
        variants.put(
                "offset index",
                new LogSegmentData(
                        whole.logSegment(),
                        unreadable,
                        whole.timeIndex(),
                        whole.transactionIndex(),
                        whole.producerSnapshotIndex(),
                        whole.leaderEpochIndex()));
        variants.put(
                "time index",
                new LogSegmentData(
                        whole.logSegment(),
                        whole.offsetIndex(),
                        unreadable,
                        whole.transactionIndex(),
                        whole.producerSnapshotIndex(),
                        whole.leaderEpochIndex()));
        variants.put(
                "transaction index",
                new LogSegmentData(
                        whole.logSegment(),
                        whole.offsetIndex(),
                        whole.timeIndex(),
                        Optional.of(unreadable),
                        whole.producerSnapshotIndex(),
                        whole.leaderEpochIndex()));
        variants.put(
                "producer snapshot",
                new LogSegmentData(
                        whole.logSegment(),
                        whole.offsetIndex(),
                        whole.timeIndex(),
                        whole.transactionIndex(),
                        unreadable,
                        whole.leaderEpochIndex()));
        return variants;
    }

    /** The size of the log. */
    int size() {
        return metadata.segmentSizeInBytes();
    }

    /** The whole log; for segments that fit the heap. */
    byte[] log() {
        return log(0, size());
    }

    /** The log's bytes from {@code from} to {@code to}, exclusive. */
    byte[] log(long from, long to) {
        return PatternBytes.bytes(seed, from, Math.toIntExact(to - from));
    }

    /** The SHA-256 digest of the whole log. */
    byte[] logSha256() {
        return logSha256.clone();
    }

    /** The SHA-256 digest of the log from {@code from} to its end. */
    byte[] logSha256From(long from) {
        return PatternBytes.digest(seed, from, size());
    }

    /** An index's bytes, empty if the segment has no such index. */
    Optional<byte[]> index(IndexType type) {
        boolean empty = size() == 0;
        return switch (type) {
            case OFFSET -> Optional.of(indexBytes(type, empty ? 0 : OFFSET_INDEX_BYTES));
            case TIMESTAMP -> Optional.of(indexBytes(type, empty ? 0 : TIME_INDEX_BYTES));
            case TRANSACTION -> transactionIndex ? Optional.of(indexBytes(type, TXN_INDEX_BYTES)) : Optional.empty();
            case PRODUCER_SNAPSHOT -> Optional.of(indexBytes(type, SNAPSHOT_BYTES));
            case LEADER_EPOCH -> Optional.of(leaderEpochCheckpoint());
        };
    }

    private byte[] indexBytes(IndexType type, int length) {
        return PatternBytes.bytes(seed + 0x1000L * (type.ordinal() + 1), 0, length);
    }

    /** Kafka's checkpoint text: version 0, the number of entries, then one "epoch startOffset" line each. */
    private byte[] leaderEpochCheckpoint() {
        StringBuilder text = new StringBuilder("0\n")
                .append(metadata.segmentLeaderEpochs().size())
                .append('\n');
        metadata.segmentLeaderEpochs()
                .forEach((epoch, offset) ->
                        text.append(epoch).append(' ').append(offset).append('\n'));
        return text.toString().getBytes(StandardCharsets.UTF_8);
    }

    private Path path(IndexType type) {
        String name = type == null
                ? "segment.log"
                : switch (type) {
                    case OFFSET -> "segment.index";
                    case TIMESTAMP -> "segment.timeindex";
                    case TRANSACTION -> "segment.txnindex";
                    case PRODUCER_SNAPSHOT -> "segment.snapshot";
                    case LEADER_EPOCH ->
                        throw new IllegalArgumentException("the leader-epoch checkpoint travels as bytes");
                };
        return dir.resolve(name);
    }
}
