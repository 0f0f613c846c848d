package io.krabka.kernel.log;

/**
 * The answer to OffsetsForLeaderEpoch for one partition: the largest epoch at most the one requested, and the offset
 * where it ends (the start of the next epoch, or the log end offset for the latest).
 *
 * @param leaderEpoch the epoch, or {@link #UNDEFINED_EPOCH}
 * @param endOffset   the offset after the epoch's last, or {@link #UNDEFINED_EPOCH_OFFSET}
 */
public record EpochEndOffset(int leaderEpoch, long endOffset) {

    /** Kafka's value for "no epoch". */
    public static final int UNDEFINED_EPOCH = -1;

    /** Kafka's value for "no end offset". */
    public static final long UNDEFINED_EPOCH_OFFSET = -1;

    /** Neither an epoch nor an offset: the epoch is unknown here. */
    public static final EpochEndOffset UNDEFINED = new EpochEndOffset(UNDEFINED_EPOCH, UNDEFINED_EPOCH_OFFSET);

    /** Checks the values. */
    public EpochEndOffset {
        if (leaderEpoch < UNDEFINED_EPOCH || endOffset < UNDEFINED_EPOCH_OFFSET) {
            throw new IllegalArgumentException("invalid epoch end offset " + leaderEpoch + "@" + endOffset);
        }
    }
}
