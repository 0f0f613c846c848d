package io.krabka.kernel.restore;

import io.krabka.kernel.record.RecordBatch;
import io.krabka.kernel.record.UnsupportedCompressionTypeException;
import io.krabka.kernel.restore.CorruptBatchException.Reason;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.OptionalLong;

/**
 * The restore's verify stage for one segment's {@code .log}: reads it once from a stream, checks the framing and
 * CRC-32C of every batch, and derives the segment's true end offset and max timestamp from the bytes, never from
 * the archive's metadata. The first failure stops the scan with a {@link RestoreIntegrityException} naming the
 * object and the byte position.
 *
 * <p>Checked per batch, in Kafka's terms: magic 2; a length field that frames at least a header and at most
 * {@link #maxBatchSize()}; the whole batch present in the stream; the CRC-32C over the attributes to the end; a
 * non-negative last offset delta and record count; a known codec; a base offset at or above the segment's start
 * for the first batch and above the previous batch's last offset for every other (gaps are fine: compaction makes
 * them); every offset within the 32-bit relative range of the segment's indexes, as Kafka's {@code LogSegment}
 * requires. Records are not decompressed: the CRC covers their bytes and Kafka's own recovery goes no deeper.
 *
 * <p>Magic 0 and 1 batches are refused ({@link Reason#LEGACY_MAGIC}): Kafka 4 writes only magic 2 and its
 * remote tier copies what the broker wrote, so a legacy message set in an archive is either from a cluster that
 * ran a long-gone format or damage, and the later stages rebuild indexes and producer state from magic 2 headers.
 *
 * <p>Memory is one batch whatever the segment's size, bounded by the batch cap. The default cap,
 * {@value #DEFAULT_MAX_BATCH_SIZE} bytes, is far above Kafka's default {@code message.max.bytes} (about 1 MiB)
 * because operators raise that per topic and a batch may have been written under a larger limit, while a
 * corrupt length field near {@code Integer.MAX_VALUE} must not make the restore allocate 2 GiB; the 8 GiB cap on
 * a {@code .log} bounds the segment, not a batch.
 */
public final class SegmentVerifier {

    /** The default cap on one batch's size in bytes: 256 MiB. */
    public static final int DEFAULT_MAX_BATCH_SIZE = 256 * 1024 * 1024;

    private final int maxBatchSize;

    /** A verifier with the default batch cap. */
    public SegmentVerifier() {
        this(DEFAULT_MAX_BATCH_SIZE);
    }

    /**
     * A verifier that refuses batches above {@code maxBatchSize} bytes.
     *
     * @throws IllegalArgumentException if the cap cannot hold a batch header
     */
    public SegmentVerifier(int maxBatchSize) {
        if (maxBatchSize < RecordBatch.RECORD_BATCH_OVERHEAD) {
            throw new IllegalArgumentException("a batch cap of " + maxBatchSize + " bytes cannot hold a batch header");
        }
        this.maxBatchSize = maxBatchSize;
    }

    /** The largest batch accepted, in bytes. */
    public int maxBatchSize() {
        return maxBatchSize;
    }

    /**
     * Verifies the segment read from {@code in} to its end, handing each batch to {@code visitor} once it passed
     * its checks. The stream is not closed.
     *
     * @param segment what the archive claims about the segment
     * @param in      the segment's bytes from its first
     * @param visitor receives each verified batch in order
     * @return what the bytes say about the segment
     * @throws RestoreIntegrityException at the first batch or size that fails a check
     * @throws IOException               if the stream or the visitor fails
     */
    public VerifiedSegment verify(SegmentObject segment, InputStream in, BatchVisitor visitor)
            throws IOException, RestoreIntegrityException {
        String key = segment.key();
        BatchReader reader = new BatchReader(in, key, segment.declaredSize(), maxBatchSize);
        int batchCount = 0;
        long recordCount = 0;
        long firstOffset = -1;
        long lastOffset = -1;
        long maxTimestamp = RecordBatch.NO_TIMESTAMP;
        for (ByteBuffer bytes = reader.next(); bytes != null; bytes = reader.next()) {
            long position = reader.position() - bytes.limit();
            VerifiedBatch batch = check(segment, RecordBatch.at(bytes, 0, key, position), position, lastOffset);
            visitor.visit(batch, bytes.asReadOnlyBuffer());
            if (batchCount++ == 0) {
                firstOffset = batch.baseOffset();
            }
            recordCount += batch.recordCount();
            lastOffset = batch.lastOffset();
            maxTimestamp = Math.max(maxTimestamp, batch.maxTimestamp());
        }
        return batchCount == 0
                ? new VerifiedSegment(key, 0, 0, OptionalLong.empty(), OptionalLong.empty(), maxTimestamp, 0)
                : new VerifiedSegment(
                        key,
                        batchCount,
                        recordCount,
                        OptionalLong.of(firstOffset),
                        OptionalLong.of(lastOffset),
                        maxTimestamp,
                        reader.position());
    }

    /** The checks on one framed batch; {@code previousLastOffset} is -1 for the first. */
    private static VerifiedBatch check(SegmentObject segment, RecordBatch batch, long position, long previousLastOffset)
            throws RestoreIntegrityException {
        String key = segment.key();
        long stored = batch.checksum();
        long computed = batch.computeChecksum();
        if (stored != computed) {
            throw new ChecksumMismatchException(key, position, stored, computed);
        }
        long baseOffset = batch.baseOffset();
        int delta = batch.lastOffsetDelta();
        if (delta < 0 || baseOffset > Long.MAX_VALUE - delta) {
            throw new CorruptBatchException(
                    key,
                    position,
                    Reason.INVALID_OFFSETS,
                    "base offset " + baseOffset + " and last offset delta " + delta + " make no offset range");
        }
        int records = batch.recordsCount();
        if (records < 0 || records - 1L > delta) {
            throw new CorruptBatchException(
                    key,
                    position,
                    Reason.INVALID_RECORD_COUNT,
                    records + " records in a batch spanning " + (delta + 1L) + " offsets");
        }
        try {
            batch.compressionType();
        } catch (UnsupportedCompressionTypeException e) {
            throw new CorruptBatchException(key, position, Reason.UNKNOWN_COMPRESSION, e.getMessage());
        }
        if (previousLastOffset < 0 && baseOffset < segment.baseOffset()) {
            throw new CorruptBatchException(
                    key,
                    position,
                    Reason.BELOW_SEGMENT_BASE,
                    "base offset " + baseOffset + " is below the segment's base offset " + segment.baseOffset());
        }
        if (previousLastOffset >= 0 && baseOffset <= previousLastOffset) {
            throw new CorruptBatchException(
                    key,
                    position,
                    Reason.OFFSETS_NOT_INCREASING,
                    "base offset " + baseOffset + " is not above the previous batch's last offset "
                            + previousLastOffset);
        }
        long lastOffset = baseOffset + delta;
        if (lastOffset - segment.baseOffset() > Integer.MAX_VALUE) {
            throw new CorruptBatchException(
                    key,
                    position,
                    Reason.OFFSET_OUT_OF_SEGMENT_RANGE,
                    "last offset "
                            + lastOffset + " is more than " + Integer.MAX_VALUE + " above the segment's base offset "
                            + segment.baseOffset());
        }
        return new VerifiedBatch(
                position,
                batch.sizeInBytes(),
                baseOffset,
                lastOffset,
                records,
                batch.maxTimestamp(),
                batch.partitionLeaderEpoch(),
                batch.producerId(),
                batch.producerEpoch(),
                batch.baseSequence(),
                batch.lastSequence(),
                batch.isTransactional(),
                batch.isControlBatch());
    }
}
