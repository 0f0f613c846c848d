package io.krabka.testkit;

import java.util.EnumSet;
import java.util.Set;

/**
 * Optional behaviours of an {@code ObjectStore} that {@link ObjectStoreConformance} checks only when the store
 * under test declares them in {@link ObjectStoreConformance#capabilities()}.
 */
public enum ObjectStoreCapability {

    /**
     * A create-only write refuses a key that holds an object, with {@code ObjectExistsException}, leaving the
     * object as it was. Declared by default. Leave it out only for a store that truly cannot refuse (Ceph radosgw
     * 16 ignores {@code If-None-Match} in versioned buckets): the archive then relies on the bucket's retention.
     */
    CREATE_REFUSES_EXISTING(true),

    /** The store keeps every version of a key, and reads and heads by version. Not declared by default. */
    VERSIONS(false),

    /** Deletes remove objects. Declared by default; a bucket under retention refuses them. */
    DELETE(true);

    private final boolean declaredByDefault;

    ObjectStoreCapability(boolean declaredByDefault) {
        this.declaredByDefault = declaredByDefault;
    }

    /** The capabilities declared when a store does not override the defaults. */
    public static Set<ObjectStoreCapability> defaults() {
        Set<ObjectStoreCapability> defaults = EnumSet.noneOf(ObjectStoreCapability.class);
        for (ObjectStoreCapability capability : values()) {
            if (capability.declaredByDefault) {
                defaults.add(capability);
            }
        }
        return defaults;
    }
}
