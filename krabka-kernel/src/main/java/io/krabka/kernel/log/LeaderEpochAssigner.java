package io.krabka.kernel.log;

import java.util.OptionalInt;

/**
 * What segment recovery needs of the partition's leader epoch cache: Kafka's {@code LeaderEpochFileCache} reduced
 * to the two calls {@link LogSegment#recover} makes. Recovery assigns an epoch at the base offset of the first
 * batch that carries it, for epochs above the latest.
 */
public interface LeaderEpochAssigner {

    /** The latest epoch assigned, if any. */
    OptionalInt latestEpoch();

    /** Records that {@code epoch} starts at {@code startOffset}. */
    void assign(int epoch, long startOffset);
}
