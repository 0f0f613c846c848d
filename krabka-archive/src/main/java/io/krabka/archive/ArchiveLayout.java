package io.krabka.archive;

import io.krabka.objectstore.SegmentObjectKeys;
import io.krabka.spi.common.Uuid;

/**
 * Where an archive's objects live under a key prefix: {@code <prefix>/<topic>-<partition>-<topic id>/<base offset,
 * 20 digits>-<segment id>.<suffix>}, ids in Kafka's 22-character URL-safe base64 — the layout of Kafka's
 * LocalTieredStorage and of the original Krabka's archive, under a prefix as the object-store tier's
 * {@link SegmentObjectKeys} takes it. The manifest and the abandonment record of a segment
 * sit beside its objects, under the suffixes {@value #MANIFEST_SUFFIX} and {@value #ABANDONED_SUFFIX}.
 *
 * @param prefix the key prefix without leading or trailing {@code /}; empty for the bucket's root
 */
public record ArchiveLayout(String prefix) {

    /** The suffix of a segment's manifest: {@code MANIFEST_SUFFIX} without its dot. */
    public static final String MANIFEST_SUFFIX = "manifest";

    /** The suffix of the record of an abandoned copy. */
    public static final String ABANDONED_SUFFIX = "abandoned";

    /**
     * Validates the prefix.
     *
     * @throws IllegalArgumentException if the prefix starts or ends with {@code /} or has an empty segment
     */
    public ArchiveLayout {
        new SegmentObjectKeys(prefix);
    }

    /** The layout under a prefix as a user writes it: surrounding {@code /} and blanks are dropped. */
    public static ArchiveLayout underPrefix(String prefix) {
        return new ArchiveLayout(SegmentObjectKeys.underPrefix(prefix).prefix());
    }

    /** What every key of the archive starts with: empty, or the prefix and {@code /}. */
    public String keyPrefix() {
        return prefix.isEmpty() ? "" : prefix + "/";
    }

    /** The key of a partition's directory, without a trailing {@code /}. */
    public String partitionDirectory(String topic, int partition, Uuid topicId) {
        return keyPrefix() + topic + "-" + partition + "-" + topicId;
    }

    /** The key of a segment's object with the given suffix (without its dot). */
    public String segmentKey(
            String topic, int partition, Uuid topicId, long startOffset, Uuid segmentId, String suffix) {
        return partitionDirectory(topic, partition, topicId) + "/" + segmentStem(startOffset, segmentId) + "." + suffix;
    }

    /** The file name of a segment's objects before the suffix: {@code <base offset, 20 digits>-<segment id>}. */
    public static String segmentStem(long startOffset, Uuid segmentId) {
        return String.format("%020d", startOffset) + "-" + segmentId;
    }
}
