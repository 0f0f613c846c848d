package io.krabka.kernel.log.cleaner;

import java.util.function.LongSupplier;

/**
 * What one cleaning of a log read, wrote and took, Kafka's {@code CleanerStats}: logged when it ends and behind the
 * {@code LogCleaner} gauges. Written by the one thread cleaning; read by the gauges once the cleaning is done.
 */
final class CleanerStats {

    private final LongSupplier clock;
    private final long startTime;
    private long mapCompleteTime = -1;
    private long endTime = -1;
    long bytesRead;
    long bytesWritten;
    long mapBytesRead;
    long mapMessagesRead;
    long messagesRead;
    long invalidMessagesRead;
    long messagesWritten;
    double bufferUtilization;

    /** Stats starting now, by {@code clock} in milliseconds. */
    CleanerStats(LongSupplier clock) {
        this.clock = clock;
        this.startTime = clock.getAsLong();
    }

    void readMessages(int messages, int bytes) {
        messagesRead += messages;
        bytesRead += bytes;
    }

    /** A record without a key, which a compacted log has no use for. */
    void invalidMessage() {
        invalidMessagesRead++;
    }

    void recopyMessages(int messages, int bytes) {
        messagesWritten += messages;
        bytesWritten += bytes;
    }

    void indexMessagesRead(int messages) {
        mapMessagesRead += messages;
    }

    void indexBytesRead(int bytes) {
        mapBytesRead += bytes;
    }

    /** The offset map is built. */
    void indexDone() {
        mapCompleteTime = clock.getAsLong();
    }

    /** The cleaning is over. */
    void allDone() {
        endTime = clock.getAsLong();
    }

    double elapsedSecs() {
        return (endTime - startTime) / 1000.0;
    }

    double elapsedIndexSecs() {
        return (mapCompleteTime - startTime) / 1000.0;
    }
}
