package io.krabka.kernel.log.checkpoint;

import io.krabka.spi.common.Uuid;
import java.util.Objects;

/**
 * What a partition's {@code partition.metadata} file holds.
 *
 * @param version the file's version, at least zero
 * @param topicId the topic's id, never the zero id
 */
public record PartitionMetadata(int version, Uuid topicId) {

    /** Validates the values. */
    public PartitionMetadata {
        if (version < 0) {
            throw new IllegalArgumentException("negative partition metadata version " + version);
        }
        Objects.requireNonNull(topicId, "topicId");
        if (topicId.equals(Uuid.ZERO_UUID)) {
            throw new IllegalArgumentException("the zero topic id is not a topic's id");
        }
    }

    /** The file's text, exactly as Kafka writes it: two lines, the second without a line end. */
    public String encode() {
        return "version: " + version + "\ntopic_id: " + topicId;
    }
}
