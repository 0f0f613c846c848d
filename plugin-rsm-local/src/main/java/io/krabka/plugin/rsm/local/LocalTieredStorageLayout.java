package io.krabka.plugin.rsm.local;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import java.nio.file.Path;
import java.util.EnumMap;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where Kafka's LocalTieredStorage keeps a segment, so that either can read what the other wrote:
 * {@code <dir>/kafka-tiered-storage/<topic>-<partition>-<topicId>/<startOffset:020d>-<segmentId><suffix>}, ids in
 * Kafka's 22-character URL-safe base64.
 */
final class LocalTieredStorageLayout {
    /** Kafka's {@code LocalTieredStorage.ROOT_STORAGE_DIR_NAME}. */
    static final String ROOT_DIR_NAME = "kafka-tiered-storage";

    /** Kafka's legal topic characters; anything else could step outside the tier ("../x", "a/b"). */
    private static final Pattern LEGAL_TOPIC = Pattern.compile("[a-zA-Z0-9._-]+");

    private final Path root;

    /** The layout under {@code dir}, the value of the {@code dir} setting. */
    LocalTieredStorageLayout(Path dir) {
        this.root = Objects.requireNonNull(dir, "dir").resolve(ROOT_DIR_NAME);
    }

    /** {@code <dir>/kafka-tiered-storage}, the parent of every partition directory. */
    Path root() {
        return root;
    }

    /**
     * The directory of a partition: {@code <topic>-<partition>-<topicId>}.
     *
     * @throws IllegalArgumentException if the topic name is not a legal Kafka topic name
     */
    Path partitionDirectory(TopicIdPartition partition) {
        String topic = partition.topic();
        if (!LEGAL_TOPIC.matcher(topic).matches() || topic.equals(".") || topic.equals("..")) {
            throw new IllegalArgumentException("not a legal Kafka topic name: \"" + topic + "\"");
        }
        return root.resolve(topic + "-" + partition.partition() + "-" + partition.topicId());
    }

    /** The name of a segment's file: {@code <startOffset:020d>-<segmentId><suffix>}. */
    static String fileName(long startOffset, Uuid segmentId, SegmentFileType type) {
        return String.format("%020d", startOffset) + "-" + segmentId + type.suffix();
    }

    /** Every file a segment may have, whether or not it exists. */
    SegmentFiles files(RemoteLogSegmentMetadata metadata) {
        Path directory = partitionDirectory(metadata.topicIdPartition());
        Map<SegmentFileType, Path> paths = new EnumMap<>(SegmentFileType.class);
        for (SegmentFileType type : SegmentFileType.values()) {
            paths.put(
                    type,
                    directory.resolve(fileName(
                            metadata.startOffset(),
                            metadata.remoteLogSegmentId().id(),
                            type)));
        }
        String segment = "segment " + metadata.remoteLogSegmentId().id() + " of " + metadata.topicIdPartition()
                + " at offset " + metadata.startOffset();
        return new SegmentFiles(segment, directory, paths);
    }
}
