package io.krabka.kernel.restore;

/** Hears how a restore advances, from any of its threads; a terminal display or plain lines. */
public interface RestoreProgress {
    /** Shows nothing. */
    RestoreProgress NONE = new RestoreProgress() {};

    /** The archive is listed: {@code partitions} to restore, {@code bytes} of segments to read in all. */
    default void started(int partitions, long bytes) {}

    /** {@code bytes} more of the archive were read. */
    default void read(long bytes) {}

    /** A partition is done ({@code directory} is its name in the target). */
    default void partitionDone(String directory) {}
}
