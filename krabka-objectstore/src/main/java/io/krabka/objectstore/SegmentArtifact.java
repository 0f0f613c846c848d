package io.krabka.objectstore;

import io.krabka.spi.storage.IndexType;
import java.util.Optional;

/**
 * The objects of one remote segment, with the suffixes of Kafka's LocalTieredStorage
 * ({@code RemoteLogSegmentFileset.RemoteLogSegmentFileType}).
 */
public enum SegmentArtifact {
    /** The records, {@code .log}. Uploaded last and deleted first, so its presence marks a complete segment. */
    SEGMENT("log"),
    /** The offset index. */
    OFFSET_INDEX("index"),
    /** The time index. */
    TIME_INDEX("timeindex"),
    /** The aborted-transaction index: the only optional artifact. */
    TRANSACTION_INDEX("txnindex"),
    /** The leader-epoch checkpoint, in Kafka's checkpoint text format. */
    LEADER_EPOCH_CHECKPOINT("leader_epoch_checkpoint"),
    /** The producer-state snapshot. */
    PRODUCER_SNAPSHOT("snapshot");

    private final String suffix;

    SegmentArtifact(String suffix) {
        this.suffix = suffix;
    }

    /** The key suffix, without the dot. */
    public String suffix() {
        return suffix;
    }

    /** The artifact of a key suffix (without the dot), if it is one. */
    public static Optional<SegmentArtifact> ofSuffix(String suffix) {
        for (SegmentArtifact artifact : values()) {
            if (artifact.suffix.equals(suffix)) {
                return Optional.of(artifact);
            }
        }
        return Optional.empty();
    }

    /** The artifact that holds an index. */
    public static SegmentArtifact of(IndexType indexType) {
        return switch (indexType) {
            case OFFSET -> OFFSET_INDEX;
            case TIMESTAMP -> TIME_INDEX;
            case PRODUCER_SNAPSHOT -> PRODUCER_SNAPSHOT;
            case TRANSACTION -> TRANSACTION_INDEX;
            case LEADER_EPOCH -> LEADER_EPOCH_CHECKPOINT;
        };
    }
}
