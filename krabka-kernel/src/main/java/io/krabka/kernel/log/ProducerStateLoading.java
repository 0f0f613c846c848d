package io.krabka.kernel.log;

import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.scheduler.Scheduler;
import java.io.IOException;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Brings a partition's producer state to an offset from its snapshots and batches, and deletes the snapshots of
 * deleted segments: Kafka's static {@code UnifiedLog.rebuildProducerState} and {@code deleteProducerSnapshots}.
 */
final class ProducerStateLoading {

    private static final System.Logger LOG = System.getLogger(ProducerStateLoading.class.getName());

    private ProducerStateLoading() {}

    /**
     * Rebuilds the producer state up to {@code lastOffset}, as Kafka does: from the latest snapshot at or below it,
     * replaying the batches after it (headers only, control batches whole); snapshots are taken at the starts of
     * the last two segments and at {@code lastOffset}, so that a later recovery or truncation starts close by.
     * After a clean shutdown a log without any snapshot (written by a Kafka that kept none) is not scanned: empty
     * snapshots are written instead, as Kafka does for such an upgrade. Changes nothing but the producer state.
     *
     * @param reloadFromCleanShutdown whether the log was shut down cleanly
     */
    static void rebuildProducerState(
            ProducerStateManager producerStateManager,
            LogSegments segments,
            long logStartOffset,
            long lastOffset,
            InstantSource time,
            boolean reloadFromCleanShutdown)
            throws IOException {
        List<Long> offsetsToSnapshot = new ArrayList<>();
        segments.lastSegment().ifPresent(last -> {
            segments.lowerSegment(last.baseOffset()).ifPresent(lower -> offsetsToSnapshot.add(lower.baseOffset()));
            offsetsToSnapshot.add(last.baseOffset());
        });
        offsetsToSnapshot.add(lastOffset);
        if (producerStateManager.latestSnapshotOffset().isEmpty() && reloadFromCleanShutdown) {
            for (long offset : offsetsToSnapshot) {
                producerStateManager.updateMapEndOffset(offset);
                producerStateManager.takeSnapshot();
            }
            return;
        }
        boolean isEmptyBeforeTruncation =
                producerStateManager.isEmpty() && producerStateManager.mapEndOffset() >= lastOffset;
        producerStateManager.truncateAndReload(logStartOffset, lastOffset, time.millis());
        // A log with no producers before a truncation has none after it: nothing to read.
        if (lastOffset > producerStateManager.mapEndOffset() && !isEmptyBeforeTruncation) {
            Optional<LogSegment> segmentOfLastOffset = segments.floorSegment(lastOffset);
            for (LogSegment segment : List.copyOf(segments.values(producerStateManager.mapEndOffset(), lastOffset))) {
                long startOffset =
                        Math.max(segment.baseOffset(), Math.max(producerStateManager.mapEndOffset(), logStartOffset));
                producerStateManager.updateMapEndOffset(startOffset);
                if (offsetsToSnapshot.contains(segment.baseOffset())) {
                    producerStateManager.takeSnapshot();
                }
                int maxPosition = segment.size();
                if (segmentOfLastOffset.isPresent() && segmentOfLastOffset.get() == segment) {
                    maxPosition = segment.translateOffset(lastOffset)
                            .map(LogOffsetPosition::position)
                            .orElse(segment.size());
                }
                Optional<FetchDataInfo> fetched = segment.read(startOffset, Integer.MAX_VALUE, maxPosition);
                if (fetched.isPresent() && fetched.get().records() instanceof FileSlice slice) {
                    loadProducersFromRecords(producerStateManager, slice);
                }
            }
        }
        producerStateManager.updateMapEndOffset(lastOffset);
        producerStateManager.takeSnapshot();
    }

    // Kafka's loadProducersFromRecords: validation as for a replica, since the log holds what was accepted.
    private static void loadProducersFromRecords(ProducerStateManager producerStateManager, FileSlice records)
            throws IOException {
        Map<Long, ProducerAppendInfo> loadedProducers = new HashMap<>();
        List<CompletedTxn> completedTxns = new ArrayList<>();
        FileBatchCursor batches = new FileBatchCursor(
                records.channel(), records.file().toString(), records.start(), records.start() + records.size());
        while (batches.next()) {
            Optional<ProducerBatch> batch = ProducerBatches.of(batches);
            if (batch.isPresent()) {
                long producerId = batch.get().producerId();
                ProducerAppendInfo appendInfo = loadedProducers.computeIfAbsent(
                        producerId, id -> producerStateManager.prepareUpdate(id, AppendOrigin.REPLICATION));
                appendInfo.append(batch.get()).ifPresent(completedTxns::add);
            }
        }
        loadedProducers.values().forEach(producerStateManager::update);
        completedTxns.forEach(producerStateManager::completeTxn);
    }

    /**
     * Forgets the snapshots at the base offsets of {@code segments} and deletes their files: renamed with
     * {@code .deleted} at once, removed now or, with {@code asyncDelete}, after {@code file.delete.delay.ms}.
     */
    static void deleteProducerSnapshots(
            Collection<LogSegment> segments,
            ProducerStateManager producerStateManager,
            boolean asyncDelete,
            Scheduler scheduler,
            LogConfig config)
            throws IOException {
        List<SnapshotFile> toDelete = new ArrayList<>();
        for (LogSegment segment : segments) {
            producerStateManager
                    .removeAndMarkSnapshotForDeletion(segment.baseOffset())
                    .ifPresent(toDelete::add);
        }
        if (toDelete.isEmpty()) {
            return;
        }
        if (!asyncDelete) {
            deleteAll(toDelete);
            return;
        }
        scheduler.scheduleOnce(
                "delete-producer-snapshot",
                () -> {
                    try {
                        deleteAll(toDelete);
                    } catch (IOException e) {
                        LOG.log(
                                System.Logger.Level.ERROR,
                                "Error while deleting producer state snapshots " + toDelete,
                                e);
                    }
                },
                config.fileDeleteDelayMs());
    }

    private static void deleteAll(List<SnapshotFile> snapshots) throws IOException {
        for (SnapshotFile snapshot : snapshots) {
            snapshot.deleteIfExists();
        }
    }
}
