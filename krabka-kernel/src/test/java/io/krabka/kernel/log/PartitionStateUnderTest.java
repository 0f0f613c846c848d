package io.krabka.kernel.log;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The operations the log performs on a partition's producer state, on Krabka's implementation or Kafka 4.4's, with
 * outcomes and state as text so that the two can be compared step by step.
 */
interface PartitionStateUnderTest {

    /** Appends a data batch as the log does; "ok" or the simple name of the exception. */
    String appendData(
            long producerId,
            short epoch,
            int firstSeq,
            int lastSeq,
            long firstOffset,
            long lastOffset,
            long timestamp,
            boolean transactional,
            AppendOrigin origin);

    /**
     * Appends a marker as the log does, completing its transaction with its last stable offset; the completed
     * transaction and last stable offset, "none", or the simple name of the exception.
     */
    String appendMarker(
            long producerId,
            short epoch,
            boolean abort,
            int coordinatorEpoch,
            long offset,
            long timestamp,
            short transactionVersion,
            AppendOrigin origin);

    void onHighWatermarkUpdated(long highWatermark);

    Optional<Path> takeSnapshot() throws IOException;

    void truncateAndReload(long logStartOffset, long logEndOffset, long currentTimeMs) throws IOException;

    void removeExpiredProducers(long currentTimeMs);

    long mapEndOffset();

    /** Every producer, by id, with its retained batches; the first unstable and undecided offsets; the map end. */
    String state();

    static String batch(int lastSeq, long lastOffset, int offsetDelta, long timestamp) {
        return "(" + lastSeq + "," + lastOffset + "," + offsetDelta + "," + timestamp + ")";
    }

    static String completed(
            long producerId, long firstOffset, long lastOffset, boolean aborted, long lastStableOffset) {
        return "completed(" + producerId + "," + firstOffset + "," + lastOffset + "," + aborted + ") lso="
                + lastStableOffset;
    }
}
