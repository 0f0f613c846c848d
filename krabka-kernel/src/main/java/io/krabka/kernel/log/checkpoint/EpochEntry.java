package io.krabka.kernel.log.checkpoint;

/**
 * The first offset written in a leader epoch: a line of the leader-epoch checkpoint.
 *
 * @param epoch       the leader epoch, at least zero
 * @param startOffset the first offset of the epoch, at least zero
 */
public record EpochEntry(int epoch, long startOffset) {

    /** Validates the values. */
    public EpochEntry {
        if (epoch < 0) {
            throw new IllegalArgumentException("negative leader epoch " + epoch);
        }
        if (startOffset < 0) {
            throw new IllegalArgumentException("negative start offset " + startOffset + " of leader epoch " + epoch);
        }
    }
}
