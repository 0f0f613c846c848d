package io.krabka.it;

import io.krabka.it.DumpedBatch.DumpedRecord;
import io.krabka.it.FileDump.AbortedTxnEntry;
import io.krabka.it.FileDump.LastBatch;
import io.krabka.it.FileDump.OffsetEntry;
import io.krabka.it.FileDump.ProducerEntry;
import io.krabka.it.FileDump.TimeEntry;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The lines DumpLogSegments printed for one file, between its {@code Dumping <path>} and the next, read by the
 * file's kind. A line of no known form is an {@link DumpError.Unrecognized} error.
 */
final class DumpSection {
    private static final Pattern LOG_START = Pattern.compile("Log starting offset: (\\d+)");
    private static final Pattern INVALID_BYTES = Pattern.compile("Found (\\d+) invalid bytes at the end of (.+)");
    private static final Pattern OFFSET_ENTRY = Pattern.compile("offset: (-?\\d+) position: (-?\\d+)");
    private static final Pattern TIME_ENTRY = Pattern.compile("timestamp: (-?\\d+) offset: (-?\\d+)");
    private static final Pattern PRODUCER = Pattern.compile(
            "producerId: (-?\\d+) producerEpoch: (-?\\d+)"
                    + " coordinatorEpoch: (-?\\d+) currentTxnFirstOffset: OptionalLong(?:\\.empty|\\[(-?\\d+)]) lastTimestamp: (-?\\d+)"
                    + "(?: firstSequence: (-?\\d+) lastSequence: (-?\\d+) lastOffset: (-?\\d+) offsetDelta: (-?\\d+) timestamp: (-?\\d+))?");
    private static final Pattern ABORTED_TXN = Pattern.compile(
            "version: 0 producerId: (-?\\d+) firstOffset: (-?\\d+) lastOffset: (-?\\d+) lastStableOffset: (-?\\d+)");

    private DumpSection() {}

    /** A file's dump and the errors in it. */
    record Parsed(FileDump dump, List<DumpError> errors) {}

    /** Reads the lines printed for {@code file}. */
    static Parsed parse(Path file, List<String> lines) {
        String name = file.getFileName().toString();
        String suffix = name.substring(name.lastIndexOf('.'));
        return switch (suffix) {
            case ".log" -> log(file, lines);
            case ".index" -> offsetIndex(file, lines);
            case ".timeindex" -> timeIndex(file, lines);
            case ".snapshot" -> snapshot(file, lines);
            case ".txnindex" -> txnIndex(file, lines);
            default -> throw new IllegalArgumentException("DumpLogSegments does not dump " + file);
        };
    }

    private static Parsed log(Path file, List<String> lines) {
        List<DumpError> errors = new ArrayList<>();
        List<DumpedBatch> batches = new ArrayList<>();
        List<DumpedRecord> records = new ArrayList<>();
        long startOffset = -1;
        for (String line : lines) {
            Matcher m;
            DumpedBatch batch;
            DumpedRecord record;
            if ((m = LOG_START.matcher(line)).matches()) {
                startOffset = Long.parseLong(m.group(1));
            } else if ((batch = DumpedBatch.parse(line)) != null) {
                closeBatch(batches, records);
                batches.add(batch);
                if (!batch.valid()) {
                    errors.add(new DumpError.InvalidBatch(file, batch.position(), batch.baseOffset()));
                }
            } else if ((record = DumpedRecord.parse(line)) != null && !batches.isEmpty()) {
                records.add(record);
            } else if ((m = INVALID_BYTES.matcher(line)).matches()
                    && m.group(2).equals(file.getFileName().toString())) {
                errors.add(new DumpError.InvalidBytes(file, Long.parseLong(m.group(1))));
            } else {
                errors.add(new DumpError.Unrecognized(file, line));
            }
        }
        closeBatch(batches, records);
        return new Parsed(new FileDump.LogDump(file, startOffset, batches), errors);
    }

    /** Gives the last batch the records read after it. */
    private static void closeBatch(List<DumpedBatch> batches, List<DumpedRecord> records) {
        if (!batches.isEmpty()) {
            batches.set(batches.size() - 1, batches.getLast().withRecords(records));
        }
        records.clear();
    }

    private static Parsed offsetIndex(Path file, List<String> lines) {
        List<DumpError> errors = new ArrayList<>();
        List<OffsetEntry> entries = new ArrayList<>();
        boolean empty = false;
        boolean sane = false;
        for (String line : lines) {
            Matcher m = OFFSET_ENTRY.matcher(line);
            if (m.matches()) {
                entries.add(new OffsetEntry(Long.parseLong(m.group(1)), Integer.parseInt(m.group(2))));
            } else if (line.equals(file + " is empty.")) {
                empty = true;
            } else if (line.equals(file + " passed sanity check.")) {
                sane = true;
            } else {
                errors.add(new DumpError.Unrecognized(file, line));
            }
        }
        return new Parsed(new FileDump.OffsetIndexDump(file, entries, empty, sane), errors);
    }

    private static Parsed timeIndex(Path file, List<String> lines) {
        List<DumpError> errors = new ArrayList<>();
        List<TimeEntry> entries = new ArrayList<>();
        boolean sane = false;
        for (String line : lines) {
            Matcher m = TIME_ENTRY.matcher(line);
            if (m.matches()) {
                entries.add(new TimeEntry(Long.parseLong(m.group(1)), Long.parseLong(m.group(2))));
            } else if (line.equals(file + " passed sanity check.")) {
                sane = true;
            } else {
                errors.add(new DumpError.Unrecognized(file, line));
            }
        }
        return new Parsed(new FileDump.TimeIndexDump(file, entries, sane), errors);
    }

    /** Kafka prints the message of a CorruptSnapshotException in place of the producers: any other line is one. */
    private static Parsed snapshot(Path file, List<String> lines) {
        List<DumpError> errors = new ArrayList<>();
        List<ProducerEntry> producers = new ArrayList<>();
        for (String line : lines) {
            Matcher m = PRODUCER.matcher(line);
            if (!m.matches()) {
                errors.add(new DumpError.CorruptSnapshot(file, line));
                continue;
            }
            Optional<LastBatch> last = m.group(6) == null
                    ? Optional.empty()
                    : Optional.of(new LastBatch(
                            Integer.parseInt(m.group(6)),
                            Integer.parseInt(m.group(7)),
                            Long.parseLong(m.group(8)),
                            Integer.parseInt(m.group(9)),
                            Long.parseLong(m.group(10))));
            producers.add(new ProducerEntry(
                    Long.parseLong(m.group(1)),
                    Short.parseShort(m.group(2)),
                    Integer.parseInt(m.group(3)),
                    m.group(4) == null ? OptionalLong.empty() : OptionalLong.of(Long.parseLong(m.group(4))),
                    Long.parseLong(m.group(5)),
                    last));
        }
        return new Parsed(new FileDump.SnapshotDump(file, producers), errors);
    }

    private static Parsed txnIndex(Path file, List<String> lines) {
        List<DumpError> errors = new ArrayList<>();
        List<AbortedTxnEntry> aborted = new ArrayList<>();
        for (String line : lines) {
            Matcher m = ABORTED_TXN.matcher(line);
            if (m.matches()) {
                aborted.add(new AbortedTxnEntry(
                        Long.parseLong(m.group(1)),
                        Long.parseLong(m.group(2)),
                        Long.parseLong(m.group(3)),
                        Long.parseLong(m.group(4))));
            } else {
                errors.add(new DumpError.Unrecognized(file, line));
            }
        }
        return new Parsed(new FileDump.TxnIndexDump(file, aborted), errors);
    }
}
