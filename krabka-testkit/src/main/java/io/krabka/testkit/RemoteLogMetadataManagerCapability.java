package io.krabka.testkit;

import java.util.EnumSet;
import java.util.Set;

/**
 * Optional behaviours of a {@code RemoteLogMetadataManager} that {@link RemoteLogMetadataManagerConformance}
 * checks only when an implementation declares them in {@link RemoteLogMetadataManagerConformance#capabilities()}.
 * Where the SPI defines what an implementation without the capability does instead, the kit checks that too.
 */
public enum RemoteLogMetadataManagerCapability {

    /**
     * {@code nextSegmentWithTxnIndex} skips readable segments whose transaction index is empty, as Kafka's
     * {@code RemoteLogMetadataCache} does (KIP-1058). Without it the implementation keeps the SPI's default, which
     * answers with the segment holding the offset. Declared by default.
     */
    NEXT_SEGMENT_WITH_TXN_INDEX(true),

    /**
     * Metadata outlives the instance: a new instance created with the same scratch directory, once told it leads
     * the partitions again, answers as the earlier, closed one did. Not declared by default.
     */
    DURABLE(false);

    private final boolean declaredByDefault;

    RemoteLogMetadataManagerCapability(boolean declaredByDefault) {
        this.declaredByDefault = declaredByDefault;
    }

    /** The capabilities declared when an implementation does not override the defaults. */
    public static Set<RemoteLogMetadataManagerCapability> defaults() {
        Set<RemoteLogMetadataManagerCapability> defaults = EnumSet.noneOf(RemoteLogMetadataManagerCapability.class);
        for (RemoteLogMetadataManagerCapability capability : values()) {
            if (capability.declaredByDefault) {
                defaults.add(capability);
            }
        }
        return defaults;
    }
}
