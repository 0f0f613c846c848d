package io.krabka.kernel.log;

import io.krabka.kernel.record.LogBatch;
import io.krabka.kernel.record.RecordBatch;
import io.krabka.kernel.record.RecordException;
import java.io.IOException;
import java.util.Optional;

/**
 * The walk of {@link LogSegment#recover}: every batch from the start, read whole and checked, until the first
 * one that is torn or invalid. A batch counts as valid only once its CRC holds and, for a batch with a producer id,
 * its producer state input decodes (a control batch whose marker cannot be read is cut with what follows it).
 */
final class SegmentRecovery {

    private static final System.Logger LOG = System.getLogger(SegmentRecovery.class.getName());

    private final LogSegment segment;
    private final BatchReplay replay;

    SegmentRecovery(LogSegment segment, ProducerStateManager producerStateManager, EpochAssigner leaderEpochCache) {
        this.segment = segment;
        this.replay = new BatchReplay(segment, producerStateManager, leaderEpochCache);
    }

    /** Walks the batches, feeding the segment's indexes, the epochs and the producer state; returns the valid bytes. */
    int run() throws IOException {
        int validBytes = 0;
        int lastIndexEntry = 0;
        FileBatchCursor batches = segment.log().cursor(0);
        try {
            while (batches.next()) {
                LogBatch batch = batches.load();
                batch.ensureValid();
                Optional<ProducerBatch> producerBatch =
                        batch instanceof RecordBatch v2 ? ProducerBatches.of(v2) : Optional.empty();
                segment.observeBatch(batch.maxTimestamp(), batch.lastOffset());
                if (validBytes - lastIndexEntry > segment.indexIntervalBytes()) {
                    segment.appendIndexEntries(batch.lastOffset(), validBytes);
                    lastIndexEntry = validBytes;
                }
                validBytes += batch.sizeInBytes();
                if (batch instanceof RecordBatch v2) {
                    replay.replay(v2, producerBatch);
                }
            }
        } catch (RecordException e) {
            LOG.log(
                    System.Logger.Level.WARNING,
                    "Found invalid messages in log segment " + segment.log().file() + " at byte offset " + validBytes
                            + ": " + e.getMessage());
        }
        return validBytes;
    }
}
