package io.krabka.plugin.rsm.local;

import io.krabka.spi.common.TopicIdPartition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Serializes the changes to a partition directory (publishing and deleting segments, creating and removing the
 * directory) so that a delete never removes the directory a copy is about to move files into. Striped: a fixed
 * number of locks, so memory does not grow with the number of partitions.
 */
final class PartitionLocks {
    private static final int STRIPES = 64;

    private final ReentrantLock[] locks = new ReentrantLock[STRIPES];

    PartitionLocks() {
        for (int i = 0; i < STRIPES; i++) {
            locks[i] = new ReentrantLock();
        }
    }

    /** The lock that guards the partition's directory. */
    ReentrantLock of(TopicIdPartition partition) {
        return locks[Math.floorMod(partition.hashCode(), STRIPES)];
    }
}
