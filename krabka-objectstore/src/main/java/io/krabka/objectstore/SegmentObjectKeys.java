package io.krabka.objectstore;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * Where a segment's artifacts live in a bucket: {@code <prefix>/<topic>-<partition>-<topicId>/<startOffset:020d>-
 * <segmentId>.<suffix>}, ids in Kafka's 22-character URL-safe base64 — the layout of Kafka's LocalTieredStorage
 * under a key prefix, and of the original Krabka's archive. With an empty prefix the key starts with the
 * partition's directory, never with {@code /}.
 *
 * @param prefix the key prefix without leading or trailing {@code /}; empty for the bucket's root
 */
public record SegmentObjectKeys(String prefix) {

    /** Kafka's legal topic characters; anything else could make keys of other partitions ("a/b"). */
    private static final Pattern LEGAL_TOPIC = Pattern.compile("[a-zA-Z0-9._-]+");

    /**
     * Validates the prefix.
     *
     * @throws IllegalArgumentException if the prefix starts or ends with {@code /} or has an empty segment
     */
    public SegmentObjectKeys {
        Objects.requireNonNull(prefix, "prefix");
        if (!prefix.isEmpty() && (prefix.startsWith("/") || prefix.endsWith("/") || prefix.contains("//"))) {
            throw new IllegalArgumentException(
                    "a key prefix has no leading, trailing or doubled '/': \"" + prefix + "\"");
        }
    }

    /**
     * The keys under a prefix as a user writes it: surrounding {@code /} are dropped, so {@code "/tier/"} is
     * {@code "tier"} and {@code "/"} is the bucket's root.
     *
     * @throws IllegalArgumentException if the prefix has an empty segment
     */
    public static SegmentObjectKeys underPrefix(String prefix) {
        String trimmed = Objects.requireNonNull(prefix, "prefix").strip();
        int from = 0;
        int to = trimmed.length();
        while (from < to && trimmed.charAt(from) == '/') {
            from++;
        }
        while (to > from && trimmed.charAt(to - 1) == '/') {
            to--;
        }
        return new SegmentObjectKeys(trimmed.substring(from, to));
    }

    /**
     * The key prefix of a partition's objects, ending with {@code /}: {@code <prefix>/<topic>-<partition>-<topicId>/}.
     *
     * @throws IllegalArgumentException if the topic is not a legal Kafka topic name
     */
    public String partitionPrefix(TopicIdPartition partition) {
        String topic = partition.topic();
        if (!LEGAL_TOPIC.matcher(topic).matches() || topic.equals(".") || topic.equals("..")) {
            throw new IllegalArgumentException("not a legal Kafka topic name: \"" + topic + "\"");
        }
        String directory = topic + "-" + partition.partition() + "-" + partition.topicId() + "/";
        return prefix.isEmpty() ? directory : prefix + "/" + directory;
    }

    /** The key of one artifact of a segment. */
    public String key(RemoteLogSegmentMetadata segment, SegmentArtifact artifact) {
        return partitionPrefix(segment.topicIdPartition()) + String.format("%020d", segment.startOffset()) + "-"
                + segment.remoteLogSegmentId().id() + "." + artifact.suffix();
    }
}
