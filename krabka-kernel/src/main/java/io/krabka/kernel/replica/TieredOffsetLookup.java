package io.krabka.kernel.replica;

import io.krabka.kernel.log.OffsetLookup;
import io.krabka.kernel.log.TimestampAndOffset;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.tiered.AsyncRemoteLogReader;
import io.krabka.spi.common.TopicIdPartition;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.common.KafkaException;

/**
 * A log's ListOffsets answer for a timestamp (Kafka's {@code UnifiedLog.fetchOffsetByTimestamp}), with what a
 * tiered log adds to the local lookup ({@link UnifiedLog#fetchOffsetByTimestamp}): a timestamp is searched in the
 * remote tier first, then in the local log; EARLIEST_PENDING_UPLOAD (KIP-1023) follows the highest tiered offset.
 */
final class TieredOffsetLookup {

    private TieredOffsetLookup() {}

    /**
     * The answer for {@code timestamp}; empty when no record qualifies.
     *
     * @param remoteReader the remote tier's reader, if the broker has one
     * @throws KafkaException if the remote tier failed (UNKNOWN_SERVER_ERROR)
     * @throws org.apache.kafka.common.errors.TimeoutException if the remote tier took longer than
     *                                                         {@code remote.list.offsets.request.timeout.ms}
     */
    static Optional<TimestampAndOffset> fetchOffsetByTimestamp(
            UnifiedLog log, TopicIdPartition partition, long timestamp, Optional<AsyncRemoteLogReader> remoteReader)
            throws IOException {
        if (!RemoteReads.remoteLogEnabled(log)) {
            return log.fetchOffsetByTimestamp(timestamp);
        }
        if (timestamp == OffsetLookup.EARLIEST_PENDING_UPLOAD_TIMESTAMP) {
            return Optional.of(earliestPendingUpload(log));
        }
        if (timestamp >= 0 && remoteReader.isPresent() && log.logStartOffset() != log.logEndOffset()) {
            Optional<TimestampAndOffset> remote = findInRemoteTier(log, partition, timestamp, remoteReader.get());
            if (remote.isPresent()) {
                return remote;
            }
        }
        return log.fetchOffsetByTimestamp(timestamp);
    }

    /**
     * The offset after the highest tiered one (not below the log start); with nothing tiered, the earliest offset,
     * unless the local log starts above the log start, when this leader does not know yet what was tiered (-1).
     */
    private static TimestampAndOffset earliestPendingUpload(UnifiedLog log) throws IOException {
        long highestRemoteOffset = log.highestOffsetInRemoteStorage();
        if (highestRemoteOffset == -1) {
            return log.localLogStartOffset() == log.logStartOffset()
                    ? log.fetchOffsetByTimestamp(OffsetLookup.EARLIEST_TIMESTAMP)
                            .orElseThrow()
                    : new TimestampAndOffset(-1L, -1L, OptionalInt.of(-1));
        }
        long offset = Math.max(highestRemoteOffset + 1, log.logStartOffset());
        return new TimestampAndOffset(-1L, offset, log.leaderEpochCache().epochForOffset(offset));
    }

    // Kafka's asyncOffsetRead: on the reader pool, waited for at most remote.list.offsets.request.timeout.ms.
    private static Optional<TimestampAndOffset> findInRemoteTier(
            UnifiedLog log, TopicIdPartition partition, long timestamp, AsyncRemoteLogReader remoteReader)
            throws IOException {
        CompletableFuture<Optional<TimestampAndOffset>> search;
        try {
            search = remoteReader.asyncFindOffsetByTimestamp(partition, timestamp, log.logStartOffset(), log);
        } catch (RejectedExecutionException e) {
            throw new KafkaException("The remote tier of " + partition + " cannot be searched now", e);
        }
        long timeoutMs = remoteReader.config().listOffsetsTimeoutMs();
        try {
            return search.get(timeoutMs, TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            search.cancel(false);
            throw new org.apache.kafka.common.errors.TimeoutException("Searching the remote tier of " + partition
                    + " for timestamp " + timestamp + " took over " + timeoutMs + " ms");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while searching the remote tier of " + partition);
        } catch (ExecutionException e) {
            throw new KafkaException(
                    "Failed to search the remote tier of " + partition + " for timestamp " + timestamp, e.getCause());
        }
    }
}
