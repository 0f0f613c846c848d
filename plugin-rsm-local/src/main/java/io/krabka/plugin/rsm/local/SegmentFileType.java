package io.krabka.plugin.rsm.local;

import io.krabka.spi.storage.IndexType;

/**
 * The files of one remote segment, with the suffixes of Kafka's LocalTieredStorage
 * ({@code RemoteLogSegmentFileset.RemoteLogSegmentFileType}).
 */
enum SegmentFileType {
    /**
     * The records. Published last and deleted first, so its presence marks a complete segment; declared first,
     * so that a loop over {@code values()} deletes it first.
     */
    SEGMENT(".log", false),
    OFFSET_INDEX(".index", false),
    TIME_INDEX(".timeindex", false),
    /** The only optional file: a segment without aborted transactions has none. */
    TRANSACTION_INDEX(".txnindex", true),
    LEADER_EPOCH_CHECKPOINT(".leader_epoch_checkpoint", false),
    PRODUCER_SNAPSHOT(".snapshot", false);

    private final String suffix;
    private final boolean optional;

    SegmentFileType(String suffix, boolean optional) {
        this.suffix = suffix;
        this.optional = optional;
    }

    /** The file name suffix, dot included. */
    String suffix() {
        return suffix;
    }

    /** Whether a complete segment may lack this file. */
    boolean optional() {
        return optional;
    }

    /** The file that holds an index. */
    static SegmentFileType of(IndexType indexType) {
        return switch (indexType) {
            case OFFSET -> OFFSET_INDEX;
            case TIMESTAMP -> TIME_INDEX;
            case PRODUCER_SNAPSHOT -> PRODUCER_SNAPSHOT;
            case TRANSACTION -> TRANSACTION_INDEX;
            case LEADER_EPOCH -> LEADER_EPOCH_CHECKPOINT;
        };
    }
}
