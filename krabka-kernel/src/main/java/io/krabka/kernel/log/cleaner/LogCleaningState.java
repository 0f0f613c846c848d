package io.krabka.kernel.log.cleaner;

/**
 * Where a partition is in its cleaning, Kafka's {@code LogCleaningState}; a partition without a state is free to be
 * cleaned. In progress (a cleaner thread works on it, or deletes its old segments) becomes free when done, or
 * aborted when asked to stop; aborted becomes paused once the thread has stopped; paused counts the pauses asked
 * for and is free again when each was resumed. Retention and the other work that must not meet a cleaning in a
 * log pause it first.
 */
sealed interface LogCleaningState {

    /** A cleaner thread works on the partition. */
    record LogCleaningInProgress() implements LogCleaningState {}

    /** Asked to stop; the thread stops at its next check and the partition becomes paused. */
    record LogCleaningAborted() implements LogCleaningState {}

    /** Not cleaned until resumed {@code pausedCount} times. */
    record LogCleaningPaused(int pausedCount) implements LogCleaningState {}
}
