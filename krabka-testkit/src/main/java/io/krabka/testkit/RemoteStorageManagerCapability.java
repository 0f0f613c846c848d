package io.krabka.testkit;

import java.util.EnumSet;
import java.util.Set;

/**
 * Optional behaviours of a {@code RemoteStorageManager} that {@link RemoteStorageManagerConformance} checks only
 * when an implementation declares them in {@link RemoteStorageManagerConformance#capabilities()}. Where the SPI
 * defines what an implementation without the capability must do instead, the kit checks that too, so leaving a
 * capability out is a claim that is tested, not a way to skip rules.
 */
public enum RemoteStorageManagerCapability {

    /**
     * Deletes remove a segment and its indexes, and repeated deletes succeed. Without it the implementation is
     * write-once (WORM): every delete must fail with a {@code RemoteStorageException} that is not a
     * {@code RemoteResourceNotFoundException}, and the segment must stay readable. Declared by default.
     */
    DELETE(true),

    /**
     * Copies return custom metadata (KIP-917) that fetches and deletes receive back with the segment's metadata.
     * Without it every copy must return an empty {@code Optional}. Not declared by default.
     */
    CUSTOM_METADATA(false),

    /**
     * Segments outlive the instance: a new instance created with the same scratch directory reads what an
     * earlier, closed one copied. Declared by default.
     */
    DURABLE(true);

    private final boolean declaredByDefault;

    RemoteStorageManagerCapability(boolean declaredByDefault) {
        this.declaredByDefault = declaredByDefault;
    }

    /** The capabilities declared when an implementation does not override the defaults. */
    public static Set<RemoteStorageManagerCapability> defaults() {
        Set<RemoteStorageManagerCapability> defaults = EnumSet.noneOf(RemoteStorageManagerCapability.class);
        for (RemoteStorageManagerCapability capability : values()) {
            if (capability.declaredByDefault) {
                defaults.add(capability);
            }
        }
        return defaults;
    }
}
