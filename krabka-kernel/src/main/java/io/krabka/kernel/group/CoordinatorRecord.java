package io.krabka.kernel.group;

import java.util.Objects;

/**
 * A record of {@code __consumer_offsets} the classic group coordinator writes and replays: a key and a value, or no
 * value for a tombstone (the key's group or offset is deleted, and compaction drops the key later).
 */
public sealed interface CoordinatorRecord {

    /** Whether this deletes its key. */
    boolean isTombstone();

    /**
     * A classic group's metadata.
     *
     * @param key   the group
     * @param value the metadata, or null for a tombstone
     */
    record GroupMetadata(GroupMetadataKey key, GroupMetadataValue value) implements CoordinatorRecord {
        /** Checks the key is present. */
        public GroupMetadata {
            Objects.requireNonNull(key, "key");
        }

        @Override
        public boolean isTombstone() {
            return value == null;
        }
    }

    /**
     * A committed offset.
     *
     * @param key   the group, topic and partition
     * @param value the offset, or null for a tombstone
     */
    record OffsetCommit(OffsetCommitKey key, OffsetCommitValue value) implements CoordinatorRecord {
        /** Checks the key is present. */
        public OffsetCommit {
            Objects.requireNonNull(key, "key");
        }

        @Override
        public boolean isTombstone() {
            return value == null;
        }
    }
}
