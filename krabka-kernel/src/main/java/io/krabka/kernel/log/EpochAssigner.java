package io.krabka.kernel.log;

import java.io.IOException;

/**
 * Learns where leader epochs start: appends and segment recovery report each batch's partition leader epoch and
 * base offset. {@link LeaderEpochFileCache} is the one that keeps them.
 */
@FunctionalInterface
public interface EpochAssigner {

    /**
     * Records that {@code epoch} starts at {@code startOffset}, if that is news: a batch of the latest epoch at a
     * later offset changes nothing.
     *
     * @throws IllegalArgumentException if the epoch or the offset is negative
     * @throws IOException              if the change could not be persisted
     */
    void assign(int epoch, long startOffset) throws IOException;
}
