package io.krabka.kernel.log;

import io.krabka.kernel.record.LogBatch;
import io.krabka.kernel.record.MemoryRecords;
import io.krabka.kernel.record.RecordBatch;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * One segment of a partition log, Kafka's {@code LogSegment}: the records ({@code .log}), the sparse offset index
 * ({@code .index}), the time index ({@code .timeindex}) and the aborted transactions ({@code .txnindex}), all
 * named by the segment's base offset, which is at or below every offset in it and above every offset of earlier
 * segments.
 *
 * <p>Threads: one writer, the log under its lock, appends, truncates, recovers, rolls and renames. Reads
 * ({@link #read}, {@link #translateOffset}, {@link #findOffsetByTimestamp}, {@link #readNextOffset}, the
 * timestamps) need no lock: the records are published after they are written and index entries after the records
 * they point at, so a reader sees only whole batches.
 */
public final class LogSegment implements Closeable {

    private static final System.Logger LOG = System.getLogger(LogSegment.class.getName());

    private final FileRecords log;
    private final OffsetIndex offsetIndex;
    private final TimeIndex timeIndex;
    private final TransactionIndex txnIndex;
    private final long baseOffset;
    private final int indexIntervalBytes;
    private final long rollJitterMs;
    private final InstantSource time;

    private final SegmentAge age;
    private volatile TimestampOffset maxTimestampAndOffsetSoFar;
    private int bytesSinceLastIndexEntry;
    // Why the segment holds bytes of a failed append it could not remove; null while it holds none.
    private String torn;

    /**
     * A segment over open files, as Kafka's constructor; {@link #open} makes them.
     *
     * @param indexIntervalBytes roughly how many bytes lie between index entries
     * @param rollJitterMs       the random time taken off {@code segment.ms} for this segment
     * @param time               the clock the segment's age is measured by
     */
    public LogSegment(
            FileRecords log,
            OffsetIndex offsetIndex,
            TimeIndex timeIndex,
            TransactionIndex txnIndex,
            long baseOffset,
            int indexIntervalBytes,
            long rollJitterMs,
            InstantSource time) {
        this.log = Objects.requireNonNull(log, "log");
        this.offsetIndex = Objects.requireNonNull(offsetIndex, "offsetIndex");
        this.timeIndex = Objects.requireNonNull(timeIndex, "timeIndex");
        this.txnIndex = Objects.requireNonNull(txnIndex, "txnIndex");
        if (offsetIndex.baseOffset() != baseOffset
                || timeIndex.baseOffset() != baseOffset
                || txnIndex.startOffset() != baseOffset) {
            throw new IllegalArgumentException(
                    "indexes of " + log.file() + " do not start at its base offset " + baseOffset);
        }
        this.baseOffset = baseOffset;
        this.indexIntervalBytes = indexIntervalBytes;
        this.rollJitterMs = rollJitterMs;
        this.time = Objects.requireNonNull(time, "time");
        this.age = new SegmentAge(time.millis());
        this.maxTimestampAndOffsetSoFar = timeIndex.lastEntry();
    }

    /**
     * Opens the segment at {@code baseOffset} in {@code dir}, creating its files if missing, with Kafka's names
     * ({@code <20-digit base offset>.log} etc., each followed by {@code fileSuffix}). The transaction index file
     * is made by its first entry.
     *
     * @param fileAlreadyExists whether the records file exists, which decides its preallocation
     * @param initFileSize      the size a new preallocated records file gets ({@code segment.bytes})
     * @param preallocate       {@code preallocate}
     */
    public static LogSegment open(
            Path dir,
            long baseOffset,
            SegmentConfig config,
            InstantSource time,
            boolean fileAlreadyExists,
            int initFileSize,
            boolean preallocate,
            String fileSuffix)
            throws IOException {
        SegmentFiles files = SegmentFiles.open(
                dir, baseOffset, config.maxIndexSize(), fileAlreadyExists, initFileSize, preallocate, fileSuffix);
        return new LogSegment(
                files.log(),
                files.offsetIndex(),
                files.timeIndex(),
                files.txnIndex(),
                baseOffset,
                config.indexIntervalBytes(),
                config.rollJitterMs(),
                time);
    }

    /** Opens a new segment: {@code open(dir, baseOffset, config, time, false, initFileSize, preallocate, "")}. */
    public static LogSegment open(
            Path dir, long baseOffset, SegmentConfig config, InstantSource time, int initFileSize, boolean preallocate)
            throws IOException {
        return open(dir, baseOffset, config, time, false, initFileSize, preallocate, "");
    }

    /** The records file. */
    public FileRecords log() {
        return log;
    }

    /** The offset index. */
    public OffsetIndex offsetIndex() {
        return offsetIndex;
    }

    /** The time index. */
    public TimeIndex timeIndex() {
        return timeIndex;
    }

    /** The transaction index. */
    public TransactionIndex txnIndex() {
        return txnIndex;
    }

    /** The offset every offset in the segment is at or above. */
    public long baseOffset() {
        return baseOffset;
    }

    /** Roughly how many bytes lie between index entries. */
    public int indexIntervalBytes() {
        return indexIntervalBytes;
    }

    /** The random time taken off {@code segment.ms} for this segment. */
    public long rollJitterMs() {
        return rollJitterMs;
    }

    /** The size of the records in bytes. */
    public int size() {
        return log.sizeInBytes();
    }

    // Appends.

    /**
     * Appends batches whose offsets are assigned, the last being {@code largestOffset}, as Kafka 4.4's
     * {@code append}: the records first, then, for each batch, an offset index entry (the batch's last offset
     * and position) and a time index entry (the largest timestamp so far and the last offset of its batch) when
     * more than {@code index.interval.bytes} were appended since the last entries.
     *
     * <p>All or nothing: when a write fails (a full disk, an I/O error; an index gets the blocks for a new page
     * through its channel before it writes to the page's mapping, so a full disk is an exception there too), the
     * segment is put back as it was before, so that no later append lands behind torn bytes and the offsets are
     * given again. If even that fails, the segment refuses every append until it is recovered.
     *
     * @throws LogSegmentOffsetOverflowException if {@code largestOffset} is too far above the base offset
     * @throws java.io.UncheckedIOException      if an index could not get the blocks for a new entry
     * @throws TornWriteException               if a write failed and putting the segment back failed too
     * @throws KafkaStorageException             if the segment is torn
     */
    public void append(long largestOffset, MemoryRecords records) throws IOException {
        if (records.sizeInBytes() == 0) {
            return;
        }
        if (torn != null) {
            throw new KafkaStorageException("Segment " + log.file() + " holds the torn bytes of a failed append ("
                    + torn + ") and takes no more until the log is recovered");
        }
        ensureOffsetInRange(largestOffset);
        int position = log.sizeInBytes();
        // Every index entry this append adds is at or above its first batch's last offset; every older one below.
        long firstEntryOffset = records.iterator().next().lastOffset();
        TimestampOffset maxBefore = maxTimestampAndOffsetSoFar;
        int sinceEntryBefore = bytesSinceLastIndexEntry;
        try {
            appendRecordsAndIndexEntries(records, position);
        } catch (IOException | RuntimeException e) {
            restore(position, firstEntryOffset, maxBefore, sinceEntryBefore, e);
            throw e;
        }
    }

    private void appendRecordsAndIndexEntries(MemoryRecords records, int position) throws IOException {
        int physicalPosition = position;
        log.append(records);
        for (LogBatch batch : records) {
            if (batch.maxTimestamp() > maxTimestampSoFar()) {
                maxTimestampAndOffsetSoFar = new TimestampOffset(batch.maxTimestamp(), batch.lastOffset());
            }
            if (bytesSinceLastIndexEntry > indexIntervalBytes) {
                offsetIndex.append(batch.lastOffset(), physicalPosition);
                TimestampOffset max = maxTimestampAndOffsetSoFar;
                timeIndex.maybeAppend(max.timestamp(), max.offset());
                bytesSinceLastIndexEntry = 0;
            }
            physicalPosition += batch.sizeInBytes();
            bytesSinceLastIndexEntry += batch.sizeInBytes();
        }
    }

    /** Puts the segment back as it was before a failed append; marks it torn, and says so, if that fails too. */
    private void restore(
            int position, long firstEntryOffset, TimestampOffset maxBefore, int sinceEntryBefore, Throwable failure)
            throws TornWriteException {
        try {
            offsetIndex.truncateTo(firstEntryOffset);
            timeIndex.truncateTo(firstEntryOffset);
            log.truncateTo(position);
            maxTimestampAndOffsetSoFar = maxBefore;
            bytesSinceLastIndexEntry = sinceEntryBefore;
        } catch (IOException | RuntimeException e) {
            torn = failure.toString();
            throw new TornWriteException(
                    "Could not remove the torn bytes of a failed append (" + failure + ") from " + log.file()
                            + "; the segment takes no more appends until the log is recovered",
                    failure,
                    e);
        }
    }

    /** Writes a transaction index entry for {@code completedTxn} if it aborted. */
    public void updateTxnIndex(CompletedTxn completedTxn, long lastStableOffset) throws IOException {
        if (completedTxn.isAborted()) {
            txnIndex.append(completedTxn.toAbortedTxn(lastStableOffset));
        }
    }

    private void ensureOffsetInRange(long offset) {
        if (!offsetIndex.canAppendOffset(offset)) {
            throw new LogSegmentOffsetOverflowException(log.file().toString(), baseOffset, offset);
        }
    }

    // Reads.

    /** {@code translateOffset(offset, 0)}. */
    public Optional<LogOffsetPosition> translateOffset(long offset) throws IOException {
        return translateOffset(offset, 0);
    }

    /**
     * The batch holding the smallest offset at or above {@code offset}: an offset index lookup, then a scan of the
     * headers from there (or from {@code startingFilePosition}, if later).
     *
     * @return the batch's base offset, position and size; empty if every offset in the segment is below
     */
    public Optional<LogOffsetPosition> translateOffset(long offset, int startingFilePosition) throws IOException {
        OffsetPosition mapping = offsetIndex.lookup(offset);
        return log.searchForOffsetFromPosition(offset, Math.max(mapping.position(), startingFilePosition));
    }

    /** {@code read(startOffset, maxSize, size(), false)}. */
    public Optional<FetchDataInfo> read(long startOffset, int maxSize) throws IOException {
        return read(startOffset, maxSize, size());
    }

    /** {@code read(startOffset, maxSize, maxPosition, false)}. */
    public Optional<FetchDataInfo> read(long startOffset, int maxSize, long maxPosition) throws IOException {
        return read(startOffset, maxSize, OptionalLong.of(maxPosition), false);
    }

    /**
     * Reads from the batch holding the smallest offset at or above {@code startOffset}, as Kafka 4.4: at most
     * {@code maxSize} bytes and nothing at or past {@code maxPosition}. The fetch offset metadata names that batch's
     * base offset and position.
     *
     * @param maxPosition   the end of what may be exposed (the high watermark's position, say); none gives no bytes,
     *                      nor does a batch that starts at or past it
     * @param minOneMessage whether the first batch is returned whole even when larger than {@code maxSize}
     * @return empty if every offset in the segment is below {@code startOffset}
     * @throws IllegalArgumentException if {@code maxSize} is negative
     */
    public Optional<FetchDataInfo> read(long startOffset, int maxSize, OptionalLong maxPosition, boolean minOneMessage)
            throws IOException {
        if (maxSize < 0) {
            throw new IllegalArgumentException("Invalid max size " + maxSize + " for log read from segment " + log);
        }
        Optional<LogOffsetPosition> found = translateOffset(startOffset);
        if (found.isEmpty()) {
            return Optional.empty();
        }
        LogOffsetPosition start = found.get();
        LogOffsetMetadata offsetMetadata = new LogOffsetMetadata(start.offset(), baseOffset, start.position());
        int adjustedMaxSize = minOneMessage ? Math.max(maxSize, start.size()) : maxSize;
        if (adjustedMaxSize == 0 || maxPosition.isEmpty()) {
            return Optional.of(new FetchDataInfo(offsetMetadata, BufferRecords.EMPTY));
        }
        // A batch appended at or past maxPosition after the caller took it gives no bytes.
        int fetchSize = (int) Math.max(0, Math.min(maxPosition.getAsLong() - start.position(), adjustedMaxSize));
        return Optional.of(new FetchDataInfo(
                offsetMetadata,
                log.slice(start.position(), fetchSize),
                adjustedMaxSize < start.size(),
                Optional.empty()));
    }

    /** The first offset index entry at or past the end of a fetch of {@code fetchSize} bytes from the given entry. */
    public OptionalLong fetchUpperBoundOffset(OffsetPosition startOffsetPosition, int fetchSize) {
        return offsetIndex
                .fetchUpperBoundOffset(startOffsetPosition, fetchSize)
                .map(position -> OptionalLong.of(position.offset()))
                .orElseGet(OptionalLong::empty);
    }

    /** The aborted transactions of this segment that overlap [{@code fetchOffset}, {@code upperBoundOffset}). */
    public TxnIndexSearchResult collectAbortedTxns(long fetchOffset, long upperBoundOffset) {
        return txnIndex.collectAbortedTxns(fetchOffset, upperBoundOffset);
    }

    /**
     * The offset after the last batch: the base offset for an empty segment. Scans from the last offset index
     * entry.
     */
    public long readNextOffset() throws IOException {
        Optional<LogOffsetPosition> last = translateOffset(offsetIndex.lastOffset());
        if (last.isEmpty()) {
            return baseOffset;
        }
        long nextOffset = baseOffset;
        FileBatchCursor batches = log.cursor(last.get().position());
        while (batches.next()) {
            nextOffset = batches.lastOffset() + 1;
        }
        return nextOffset;
    }

    /** Whether the segment holds an offset its indexes cannot record: a log written by an old Kafka. */
    public boolean hasOverflow() throws IOException {
        long nextOffset = readNextOffset();
        return nextOffset > baseOffset && !offsetIndex.canAppendOffset(nextOffset - 1);
    }

    /**
     * The first record at or above {@code timestampMs} whose offset is at or above {@code startingOffset}, as Kafka's
     * {@code findOffsetByTimestamp}: a time index lookup, an offset index lookup, then a scan.
     *
     * @param maxDecompressedBytes the bound on the bytes a compressed batch may decompress to
     * @return empty if every record is below the timestamp or the offset
     */
    public Optional<TimestampAndOffset> findOffsetByTimestamp(
            long timestampMs, long startingOffset, long maxDecompressedBytes) throws IOException {
        TimestampOffset timestampOffset = timeIndex.lookup(timestampMs);
        int position = offsetIndex
                .lookup(Math.max(timestampOffset.offset(), startingOffset))
                .position();
        return log.searchForTimestamp(timestampMs, position, startingOffset, maxDecompressedBytes);
    }

    // Timestamps and rolling.

    /** The largest timestamp appended so far and the last offset of its batch. */
    public TimestampOffset readMaxTimestampAndOffsetSoFar() {
        return maxTimestampAndOffsetSoFar;
    }

    /** The largest timestamp appended so far, or -1. */
    public long maxTimestampSoFar() {
        return maxTimestampAndOffsetSoFar.timestamp();
    }

    /** The largest record timestamp, if any record has one. */
    public OptionalLong largestRecordTimestamp() {
        long max = maxTimestampSoFar();
        return max >= 0 ? OptionalLong.of(max) : OptionalLong.empty();
    }

    /** The largest record timestamp, or the file's modification time if no record has one: what retention uses. */
    public long largestTimestamp() throws IOException {
        long max = maxTimestampSoFar();
        return max >= 0 ? max : lastModified();
    }

    /**
     * Whether the next append of {@code rollParams} must go to a new segment, as Kafka's {@code shouldRoll}: the
     * records would pass {@code segment.bytes}; the segment is not empty and older than {@code segment.ms} minus
     * its jitter; an index is full; or the last offset cannot be held relative to the base offset.
     */
    public boolean shouldRoll(RollParams rollParams) throws IOException {
        boolean reachedRollMs = timeWaitedForRoll(rollParams.now(), rollParams.maxTimestampInMessages())
                > rollParams.maxSegmentMs() - rollJitterMs;
        int size = size();
        return size > rollParams.maxSegmentBytes() - rollParams.messagesSize()
                || (size > 0 && reachedRollMs)
                || offsetIndex.isFull()
                || timeIndex.isFull()
                || !offsetIndex.canAppendOffset(rollParams.maxOffsetInMessages());
    }

    /**
     * How long the segment has waited to roll: from its first batch's timestamp to {@code messageTimestamp} if the
     * first batch has one, else from its creation (or its last truncation to empty) to {@code now}.
     */
    public long timeWaitedForRoll(long now, long messageTimestamp) throws IOException {
        return age.timeWaitedForRoll(log, now, messageTimestamp);
    }

    /** The first batch's timestamp, or {@link Long#MAX_VALUE} if it has none or there is no batch. */
    public long getFirstBatchTimestamp() throws IOException {
        OptionalLong first = age.firstBatchTimestamp(log);
        return first.isPresent() && first.getAsLong() >= 0 ? first.getAsLong() : Long.MAX_VALUE;
    }

    /** Sets the sizes of the offset and time index files, e.g. back to the maximum when a segment is active again. */
    public void resizeIndexes(int size) throws IOException {
        offsetIndex.resize(size);
        timeIndex.resize(size);
    }

    /**
     * Called when the segment stops being the active one: appends the time index entry for the largest timestamp
     * (which retention reads) and trims the indexes and the records file to their contents.
     */
    public void onBecomeInactiveSegment() throws IOException {
        appendLargestTimestampEntry();
        offsetIndex.trimToValidSize();
        timeIndex.trimToValidSize();
        log.trim();
    }

    // The time index keeps a slot for this entry; only a trimmed index of a reopened segment has none.
    private void appendLargestTimestampEntry() {
        TimestampOffset max = maxTimestampAndOffsetSoFar;
        if (max.timestamp() > timeIndex.lastEntry().timestamp() && timeIndex.entries() < timeIndex.maxEntries()) {
            timeIndex.maybeAppend(max.timestamp(), max.offset(), true);
        }
    }

    // Recovery and truncation.

    /**
     * Rebuilds the indexes from the records and cuts the records at the first batch that is torn or invalid, as
     * Kafka's {@code recover}: every batch is read whole and its CRC checked; offset and time index entries are
     * added every {@code index.interval.bytes}; each v2 batch's partition leader epoch is assigned if above the
     * latest, and its producer state applied (aborted transactions going to the transaction index).
     *
     * @param producerStateManager the producer state at the segment's base offset
     * @param leaderEpochCache     where epochs are assigned
     * @return the number of bytes cut from the end
     * @throws LogSegmentOffsetOverflowException if a batch's offsets are too far above the base offset
     */
    public int recover(ProducerStateManager producerStateManager, EpochAssigner leaderEpochCache) throws IOException {
        offsetIndex.reset();
        timeIndex.reset();
        txnIndex.reset();
        maxTimestampAndOffsetSoFar = new TimestampOffset(RecordBatch.NO_TIMESTAMP, baseOffset);
        SegmentRecovery recovery = new SegmentRecovery(this, producerStateManager, leaderEpochCache);
        int validBytes = recovery.run();
        int truncated = log.sizeInBytes() - validBytes;
        if (truncated > 0) {
            LOG.log(
                    System.Logger.Level.DEBUG,
                    "Truncated " + truncated + " invalid bytes at the end of segment " + log.file()
                            + " during recovery");
        }
        log.truncateTo(validBytes);
        offsetIndex.trimToValidSize();
        appendLargestTimestampEntry();
        timeIndex.trimToValidSize();
        return truncated;
    }

    /** Recovery's step for one valid batch: the running largest timestamp. */
    void observeBatch(long maxTimestamp, long lastOffset) {
        ensureOffsetInRange(lastOffset);
        if (maxTimestamp > maxTimestampSoFar()) {
            maxTimestampAndOffsetSoFar = new TimestampOffset(maxTimestamp, lastOffset);
        }
    }

    /** Recovery's step for an index entry: {@code lastOffset}'s batch starts at {@code position}. */
    void appendIndexEntries(long lastOffset, int position) {
        offsetIndex.append(lastOffset, position);
        TimestampOffset max = maxTimestampAndOffsetSoFar;
        timeIndex.maybeAppend(max.timestamp(), max.offset());
    }

    /**
     * Removes every batch at or above {@code offset} and the index entries for them, as Kafka's {@code truncateTo};
     * the indexes get their maximum size back, as the segment is the active one after a truncation. An empty
     * segment counts as created now.
     *
     * @return the number of bytes removed
     */
    public int truncateTo(long offset) throws IOException {
        Optional<LogOffsetPosition> mapping = translateOffset(offset);
        offsetIndex.truncateTo(offset);
        timeIndex.truncateTo(offset);
        txnIndex.truncateTo(offset);
        offsetIndex.resize(offsetIndex.maxIndexSize());
        timeIndex.resize(timeIndex.maxIndexSize());
        int bytesTruncated =
                mapping.isEmpty() ? 0 : log.truncateTo(mapping.get().position());
        if (log.sizeInBytes() == 0) {
            age.reset(time.millis());
        }
        bytesSinceLastIndexEntry = 0;
        if (maxTimestampSoFar() >= 0) {
            maxTimestampAndOffsetSoFar = readLargestTimestamp();
        }
        return bytesTruncated;
    }

    private TimestampOffset readLargestTimestamp() throws IOException {
        TimestampOffset lastEntry = timeIndex.lastEntry();
        int position = offsetIndex.lookup(lastEntry.offset()).position();
        TimestampAndOffset after = log.largestTimestampAfter(position);
        return after.timestamp() > lastEntry.timestamp()
                ? new TimestampOffset(after.timestamp(), after.offset())
                : lastEntry;
    }

    // Files.

    /** Writes the records, then the indexes, to the storage device. */
    public void flush() throws IOException {
        log.flush();
        offsetIndex.flush();
        timeIndex.flush();
        txnIndex.flush();
    }

    /** Follows a rename of the directory the files are in. */
    public void updateParentDir(Path dir) {
        log.updateParentDir(dir);
        offsetIndex.updateParentDir(dir);
        timeIndex.updateParentDir(dir);
        txnIndex.updateParentDir(dir);
    }

    /** Renames the four files, replacing {@code oldSuffix} at the end of their names by {@code newSuffix}. */
    public void changeFileSuffixes(String oldSuffix, String newSuffix) throws IOException {
        log.renameTo(LogFileUtils.replaceSuffix(log.file(), oldSuffix, newSuffix));
        offsetIndex.renameTo(LogFileUtils.replaceSuffix(offsetIndex.file(), oldSuffix, newSuffix));
        timeIndex.renameTo(LogFileUtils.replaceSuffix(timeIndex.file(), oldSuffix, newSuffix));
        txnIndex.renameTo(LogFileUtils.replaceSuffix(txnIndex.file(), oldSuffix, newSuffix));
    }

    /** Whether all four file names end with {@code suffix}. */
    public boolean hasSuffix(String suffix) {
        return SegmentFiles.names(this)
                .allMatch(path -> path.getFileName().toString().endsWith(suffix));
    }

    /** The records file's modification time, in milliseconds. */
    public long lastModified() throws IOException {
        return Files.getLastModifiedTime(log.file()).toMillis();
    }

    /** Sets the modification time of the records and index files. */
    public void setLastModified(long ms) throws IOException {
        SegmentFiles.setLastModified(this, ms);
    }

    /** Deletes the four files, each attempted; the first failure is thrown with the others suppressed. */
    public void deleteIfExists() throws IOException {
        SegmentFiles.deleteIfExists(this);
    }

    /** Whether none of the four files exists. */
    public boolean deleted() {
        return SegmentFiles.names(this).noneMatch(Files::exists);
    }

    /** Deletes the files of the segment at {@code baseOffset} in {@code dir} whose names end with {@code fileSuffix}. */
    public static void deleteIfExists(Path dir, long baseOffset, String fileSuffix) throws IOException {
        SegmentFiles.deleteIfExists(dir, baseOffset, fileSuffix);
    }

    /**
     * Appends the time index entry for the largest timestamp, trims the indexes and the records file, then closes
     * them. Kafka 4.4 leaves the trimming to its callers; doing it here means a closed segment's files are always
     * complete and trimmed, as its tools expect. The caller flushes first. Closing a closed (or deleted) segment
     * does nothing.
     */
    @Override
    public void close() throws IOException {
        try {
            if (log.channel().isOpen()) {
                appendLargestTimestampEntry();
                offsetIndex.trimToValidSize();
                timeIndex.trimToValidSize();
                log.trim();
            }
        } finally {
            closeHandlers();
        }
    }

    /** Closes the files without writing to them: for a disk that failed. Each is attempted. */
    public void closeHandlers() throws IOException {
        SegmentFiles.closeAll(offsetIndex, timeIndex, log, txnIndex);
    }

    @Override
    public String toString() {
        return "LogSegment(baseOffset=" + baseOffset + ", size=" + size() + ", largestRecordTimestamp="
                + maxTimestampSoFar() + ")";
    }
}
