package io.krabka.it;

import java.nio.file.Path;

/**
 * Something Apache Kafka's DumpLogSegments reported wrong with a file, in the words it printed; each names the
 * file. {@link DumpLogSegments} documents which line gives which.
 */
sealed interface DumpError {

    /** The file the error is in. */
    Path file();

    /**
     * A batch whose CRC does not match its bytes: {@code ... crc: <crc> isvalid: false}.
     *
     * @param position   where the batch starts
     * @param baseOffset its base offset as its header says
     */
    record InvalidBatch(Path file, long position, long baseOffset) implements DumpError {}

    /**
     * Bytes after the last batch that are no batch: {@code Found <count> invalid bytes at the end of <name>}, which
     * DumpLogSegments prints for a truncated batch or a length field past the end of the file.
     *
     * @param count how many
     */
    record InvalidBytes(Path file, long count) implements DumpError {}

    /**
     * A record whose offset does not follow the previous one: {@code Non-consecutive offsets in <path>} and
     * {@code <previous> is followed by <next>}. DumpLogSegments also reports every segment not starting at 0 as
     * {@code -1 is followed by <first>}; that pair is no error and is not reported here.
     *
     * @param previous the offset before
     * @param next     the offset after
     */
    record NonConsecutiveOffsets(Path file, long previous, long next) implements DumpError {}

    /**
     * An offset index entry whose position does not hold a batch ending at its offset: {@code Mismatches in :<path>}
     * and {@code Index offset: <indexOffset>, log offset: <logOffset>} (the last offset of the batch there).
     */
    record OffsetIndexMismatch(Path file, long indexOffset, long logOffset) implements DumpError {}

    /**
     * A time index entry whose timestamp is not the max timestamp of the batch ending at its offset:
     * {@code Found timestamp mismatch in :<path>} and {@code Index timestamp: <a>, log timestamp: <b>}.
     */
    record TimestampMismatch(Path file, long indexTimestamp, long logTimestamp) implements DumpError {}

    /**
     * A time index entry whose timestamp is not above the previous entry's: {@code Found out of order timestamp in
     * :<path>} and {@code Index timestamp: <a>, Previously indexed timestamp: <b>}.
     */
    record TimestampOutOfOrder(Path file, long indexTimestamp, long previousTimestamp) implements DumpError {}

    /**
     * A time index entry whose offset is no batch's last offset: {@code The following indexed offsets are not found
     * in :<path>} and {@code Indexed offset: <a>, found log offset: <b>} (-1 where no batch ends at or after it).
     */
    record IndexedOffsetNotFound(Path file, long indexOffset, long logOffset) implements DumpError {}

    /**
     * A producer state snapshot Kafka cannot read: the message of its CorruptSnapshotException, such as
     * {@code Snapshot is corrupt (CRC is no longer valid). Stored crc: <a>. Computed crc: <b>}.
     */
    record CorruptSnapshot(Path file, String message) implements DumpError {}

    /**
     * DumpLogSegments stopped on this file with an exception ({@code Exception in thread "main" <exception>}): a
     * failed index sanity check (CorruptIndexException), an unreadable batch (CorruptRecordException, a
     * decompression failure), an index entry past the end of the log, a bad transaction index entry.
     *
     * @param exception the exception line, class and message
     * @param cause     the last {@code Caused by:} line, or empty
     */
    record Aborted(Path file, String exception, String cause) implements DumpError {}

    /** A line this parser does not know in the output for the file: treated as an error, never skipped. */
    record Unrecognized(Path file, String line) implements DumpError {}
}
