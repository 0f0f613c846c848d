package io.krabka.it;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;

/** What DumpLogSegments printed for one file, by the file's kind (its suffix). */
sealed interface FileDump {

    /** The file. */
    Path file();

    /**
     * A segment's {@code .log}.
     *
     * @param startOffset {@code Log starting offset}, from the file name
     * @param batches     its batches in file order, up to the first bytes that are no batch
     */
    record LogDump(Path file, long startOffset, List<DumpedBatch> batches) implements FileDump {
        /** Copies the batches. */
        public LogDump {
            batches = List.copyOf(batches);
        }
    }

    /**
     * An offset index ({@code .index}).
     *
     * @param entries           its entries ({@code offset: <o> position: <p>}); none printed with --verify-index-only
     *                          or --index-sanity-check
     * @param empty             {@code <path> is empty.}: no entry (then nothing else is checked)
     * @param passedSanityCheck {@code <path> passed sanity check.} (with --index-sanity-check)
     */
    record OffsetIndexDump(Path file, List<OffsetEntry> entries, boolean empty, boolean passedSanityCheck)
            implements FileDump {
        /** Copies the entries. */
        public OffsetIndexDump {
            entries = List.copyOf(entries);
        }
    }

    /**
     * A time index ({@code .timeindex}).
     *
     * @param entries           its entries ({@code timestamp: <t> offset: <o>}); none printed with --verify-index-only
     *                          or --index-sanity-check
     * @param passedSanityCheck {@code <path> passed sanity check.} (with --index-sanity-check)
     */
    record TimeIndexDump(Path file, List<TimeEntry> entries, boolean passedSanityCheck) implements FileDump {
        /** Copies the entries. */
        public TimeIndexDump {
            entries = List.copyOf(entries);
        }
    }

    /**
     * A producer state snapshot ({@code .snapshot}).
     *
     * @param producers its producers, in file order
     */
    record SnapshotDump(Path file, List<ProducerEntry> producers) implements FileDump {
        /** Copies the producers. */
        public SnapshotDump {
            producers = List.copyOf(producers);
        }
    }

    /**
     * A transaction index ({@code .txnindex}).
     *
     * @param abortedTxns its aborted transactions, in file order
     */
    record TxnIndexDump(Path file, List<AbortedTxnEntry> abortedTxns) implements FileDump {
        /** Copies the aborted transactions. */
        public TxnIndexDump {
            abortedTxns = List.copyOf(abortedTxns);
        }
    }

    /** An offset index entry: an absolute offset and a position in the log. */
    record OffsetEntry(long offset, int position) {}

    /** A time index entry: a timestamp and an absolute offset. */
    record TimeEntry(long timestamp, long offset) {}

    /**
     * A producer of a snapshot, as printed.
     *
     * @param lastBatch the producer's last batch, where the snapshot has one
     */
    record ProducerEntry(
            long producerId,
            short producerEpoch,
            int coordinatorEpoch,
            OptionalLong currentTxnFirstOffset,
            long lastTimestamp,
            Optional<LastBatch> lastBatch) {}

    /** The last batch of a producer in a snapshot, as printed. */
    record LastBatch(int firstSequence, int lastSequence, long lastOffset, int offsetDelta, long timestamp) {}

    /** An aborted transaction of a transaction index, as printed. */
    record AbortedTxnEntry(long producerId, long firstOffset, long lastOffset, long lastStableOffset) {}
}
