package io.krabka.objectstore;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A key of the segment layout read back: {@code <topic>-<partition>-<topic id>/<start offset, 20 digits>-<segment
 * id>.<suffix>} below the prefix, as {@link SegmentObjectKeys} writes it (and Kafka's LocalTieredStorage names its
 * files). The topic id is parsed from the end of the directory name, since both a topic and Kafka's URL-safe
 * base64 may contain {@code -}.
 *
 * @param partition   the partition, from the directory name
 * @param startOffset the segment's start offset
 * @param segmentId   the segment's id
 * @param suffix      what follows the dot: an artifact's suffix, {@code manifest}, {@code abandoned}, ...
 */
public record SegmentObjectKey(TopicIdPartition partition, long startOffset, Uuid segmentId, String suffix) {

    private static final Pattern DIRECTORY = Pattern.compile("([a-zA-Z0-9._-]+)-(\\d+)-([A-Za-z0-9_-]{22})");
    private static final Pattern FILE = Pattern.compile("(\\d{20})-([A-Za-z0-9_-]{22})\\.([a-z_]+)");

    /** Validates the parts. */
    public SegmentObjectKey {
        Objects.requireNonNull(partition, "partition");
        Objects.requireNonNull(segmentId, "segmentId");
        Objects.requireNonNull(suffix, "suffix");
        if (startOffset < 0) {
            throw new IllegalArgumentException("a start offset is at least 0: " + startOffset);
        }
    }

    /**
     * The key's parts, if it is one of the layout: {@code relativeKey} is the key without the prefix, so it is
     * {@code <directory>/<file>}.
     */
    public static Optional<SegmentObjectKey> parse(String relativeKey) {
        int slash = relativeKey.indexOf('/');
        if (slash < 0 || relativeKey.indexOf('/', slash + 1) >= 0) {
            return Optional.empty();
        }
        Matcher directory = DIRECTORY.matcher(relativeKey.substring(0, slash));
        Matcher file = FILE.matcher(relativeKey.substring(slash + 1));
        if (!directory.matches() || !file.matches()) {
            return Optional.empty();
        }
        try {
            TopicIdPartition partition = new TopicIdPartition(
                    Uuid.fromString(directory.group(3)), directory.group(1), Integer.parseInt(directory.group(2)));
            return Optional.of(new SegmentObjectKey(
                    partition, Long.parseLong(file.group(1)), Uuid.fromString(file.group(2)), file.group(3)));
        } catch (IllegalArgumentException e) {
            // An id that is not 16 bytes of base64, a partition or offset out of range: not a key of the layout.
            return Optional.empty();
        }
    }

    /** The name of the partition's directory: {@code <topic>-<partition>-<topic id>}. */
    public String partitionDirectory() {
        return partition.topic() + "-" + partition.partition() + "-" + partition.topicId();
    }
}
