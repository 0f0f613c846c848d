package io.krabka.kernel.log;

import java.io.IOException;
import java.util.OptionalInt;

/**
 * Where leader epochs start: appends and segment recovery report each batch's partition leader epoch and base
 * offset. {@link LeaderEpochFileCache} is the one that keeps them; segment recovery asks for the latest epoch so
 * that it assigns an epoch only at the first batch that carries it.
 */
public interface EpochAssigner {

    /** The latest epoch assigned, if any: the one being written to. */
    OptionalInt latestEpoch();

    /**
     * Records that {@code epoch} starts at {@code startOffset}, if that is news: a batch of the latest epoch at a
     * later offset changes nothing.
     *
     * @throws IllegalArgumentException if the epoch or the offset is negative
     * @throws IOException              if the change could not be persisted
     */
    void assign(int epoch, long startOffset) throws IOException;
}
