package io.krabka.kernel.log;

import io.krabka.kernel.record.RecordBatch;
import java.io.IOException;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What a magic 2 batch in a segment does to its partition's leader epochs and producer state, as Kafka replays it
 * when it recovers a segment: its partition leader epoch is assigned if above the latest, its producer's state
 * advances, and a transaction it completes that aborted goes to the segment's transaction index. Segment recovery
 * replays the batches it reads back; a restore replays those it writes.
 */
public final class BatchReplay {
    private final LogSegment segment;
    private final ProducerStateManager producerStateManager;
    private final EpochAssigner leaderEpochCache;

    /** Replays into the state of {@code segment}'s partition. */
    public BatchReplay(LogSegment segment, ProducerStateManager producerStateManager, EpochAssigner leaderEpochCache) {
        this.segment = Objects.requireNonNull(segment, "segment");
        this.producerStateManager = Objects.requireNonNull(producerStateManager, "producerStateManager");
        this.leaderEpochCache = Objects.requireNonNull(leaderEpochCache, "leaderEpochCache");
    }

    /**
     * Replays {@code batch}, which the segment holds.
     *
     * @throws io.krabka.kernel.record.RecordException if it is a control batch whose marker cannot be read
     */
    public void replay(RecordBatch batch) throws IOException {
        replay(batch, ProducerBatches.of(batch));
    }

    /** Replays {@code batch} with its producer state input, decoded already. */
    void replay(RecordBatch batch, Optional<ProducerBatch> producerBatch) throws IOException {
        int epoch = batch.partitionLeaderEpoch();
        OptionalInt latest = leaderEpochCache.latestEpoch();
        if (epoch >= 0 && (latest.isEmpty() || epoch > latest.getAsInt())) {
            leaderEpochCache.assign(epoch, batch.baseOffset());
        }
        if (producerBatch.isPresent()) {
            ProducerBatch input = producerBatch.get();
            ProducerAppendInfo appendInfo =
                    producerStateManager.prepareUpdate(input.producerId(), AppendOrigin.REPLICATION);
            Optional<CompletedTxn> completedTxn =
                    appendInfo.append(input, Optional.empty(), ProducerAppendInfo.TV_UNKNOWN);
            producerStateManager.update(appendInfo);
            if (completedTxn.isPresent()) {
                long lastStableOffset = producerStateManager.lastStableOffset(completedTxn.get());
                segment.updateTxnIndex(completedTxn.get(), lastStableOffset);
                producerStateManager.completeTxn(completedTxn.get());
            }
        }
        producerStateManager.updateMapEndOffset(batch.lastOffset() + 1);
    }
}
