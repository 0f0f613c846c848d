package io.krabka.kernel.log;

import io.krabka.spi.common.TopicPartition;
import java.io.Closeable;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentNavigableMap;
import java.util.concurrent.ConcurrentSkipListMap;
import java.util.function.Predicate;

/**
 * The segments of a partition log by base offset, Kafka's {@code LogSegments}: a concurrent navigable map, so
 * readers look segments up without the log's lock while its writer adds and removes them. Collections returned
 * are live views in base offset order unless said otherwise.
 */
public final class LogSegments implements Closeable {

    private final TopicPartition topicPartition;
    private final ConcurrentNavigableMap<Long, LogSegment> segments = new ConcurrentSkipListMap<>();

    /** No segments yet, for {@code topicPartition} (named in messages). */
    public LogSegments(TopicPartition topicPartition) {
        this.topicPartition = Objects.requireNonNull(topicPartition, "topicPartition");
    }

    /** Whether there is no segment. */
    public boolean isEmpty() {
        return segments.isEmpty();
    }

    /** Whether there is a segment. */
    public boolean nonEmpty() {
        return !isEmpty();
    }

    /** Adds {@code segment}, replacing one at the same base offset; returns the one replaced, or null. */
    public LogSegment add(LogSegment segment) {
        return segments.put(segment.baseOffset(), segment);
    }

    /** Removes the segment at {@code offset}, if any; its files are the caller's. */
    public void remove(long offset) {
        segments.remove(offset);
    }

    /** Removes every segment; their files are the caller's. */
    public void clear() {
        segments.clear();
    }

    /** Closes every segment, each attempted; the first failure is thrown with the others suppressed. */
    @Override
    public void close() throws IOException {
        SegmentFiles.closeAll(values().toArray(LogSegment[]::new));
    }

    /** Closes every segment's files without writing to them, each attempted: for a disk that failed. */
    public void closeHandlers() throws IOException {
        SegmentFiles.closeAll(values().stream()
                .map(segment -> (Closeable) segment::closeHandlers)
                .toArray(Closeable[]::new));
    }

    /** Follows a rename of the log directory. */
    public void updateParentDir(Path dir) {
        values().forEach(segment -> segment.updateParentDir(dir));
    }

    /** The number of segments. */
    public int numberOfSegments() {
        return segments.size();
    }

    /** The base offsets, ascending; a copy. */
    public List<Long> baseOffsets() {
        return List.copyOf(segments.keySet());
    }

    /** Whether a segment has base offset {@code offset}. */
    public boolean contains(long offset) {
        return segments.containsKey(offset);
    }

    /** The segment with base offset {@code offset}. */
    public Optional<LogSegment> get(long offset) {
        return Optional.ofNullable(segments.get(offset));
    }

    /** Every segment, oldest first. */
    public Collection<LogSegment> values() {
        return segments.values();
    }

    /**
     * The segments from the one holding {@code from} (or the first, if {@code from} precedes it) to the last whose
     * base offset is below {@code to}; none if {@code from == to}.
     *
     * @throws IllegalArgumentException if {@code to < from}
     */
    public Collection<LogSegment> values(long from, long to) {
        if (from == to) {
            return List.of();
        }
        if (to < from) {
            throw new IllegalArgumentException("Invalid log segment range: requested segments in " + topicPartition
                    + " from offset " + from + " which is greater than limit offset " + to);
        }
        Long floor = segments.floorKey(from);
        return floor == null
                ? segments.headMap(to).values()
                : segments.subMap(floor, to).values();
    }

    /**
     * The segments before the active one, from the one holding {@code from}; none if {@code from} is in the active
     * segment.
     *
     * @throws NoSuchElementException if there is no segment
     */
    public Collection<LogSegment> nonActiveLogSegmentsFrom(long from) {
        LogSegment activeSegment = activeSegment();
        return from > activeSegment.baseOffset() ? List.of() : values(from, activeSegment.baseOffset());
    }

    /** The segment with the greatest base offset at or below {@code offset}: the one that would hold it. */
    public Optional<LogSegment> floorSegment(long offset) {
        return value(segments.floorEntry(offset));
    }

    /** The segment with the greatest base offset strictly below {@code offset}. */
    public Optional<LogSegment> lowerSegment(long offset) {
        return value(segments.lowerEntry(offset));
    }

    /** The entry with the smallest base offset strictly above {@code offset}. */
    public Optional<Map.Entry<Long, LogSegment>> higherEntry(long offset) {
        return Optional.ofNullable(segments.higherEntry(offset));
    }

    /** The segment with the smallest base offset strictly above {@code offset}. */
    public Optional<LogSegment> higherSegment(long offset) {
        return value(segments.higherEntry(offset));
    }

    /** The entry with the smallest base offset. */
    public Optional<Map.Entry<Long, LogSegment>> firstEntry() {
        return Optional.ofNullable(segments.firstEntry());
    }

    /** The oldest segment. */
    public Optional<LogSegment> firstSegment() {
        return value(segments.firstEntry());
    }

    /** The oldest segment's base offset. */
    public OptionalLong firstSegmentBaseOffset() {
        Map.Entry<Long, LogSegment> first = segments.firstEntry();
        return first == null ? OptionalLong.empty() : OptionalLong.of(first.getKey());
    }

    /** The entry with the greatest base offset. */
    public Optional<Map.Entry<Long, LogSegment>> lastEntry() {
        return Optional.ofNullable(segments.lastEntry());
    }

    /** The newest segment. */
    public Optional<LogSegment> lastSegment() {
        return value(segments.lastEntry());
    }

    /** The segments whose base offset is strictly above {@code baseOffset}. */
    public Collection<LogSegment> higherSegments(long baseOffset) {
        return segments.tailMap(baseOffset, false).values();
    }

    /**
     * The segment taking appends: the newest.
     *
     * @throws NoSuchElementException if there is no segment
     */
    public LogSegment activeSegment() {
        Map.Entry<Long, LogSegment> last = segments.lastEntry();
        if (last == null) {
            throw new NoSuchElementException("no segment in the log of " + topicPartition);
        }
        return last.getValue();
    }

    /** The bytes of all segments' records. */
    public long sizeInBytes() {
        return sizeInBytes(values());
    }

    /** The segments matching {@code predicate}, oldest first; a copy. */
    public List<LogSegment> filter(Predicate<LogSegment> predicate) {
        return values().stream().filter(predicate).toList();
    }

    /** The bytes of {@code segments}' records. */
    public static long sizeInBytes(Collection<LogSegment> segments) {
        return segments.stream().mapToLong(LogSegment::size).sum();
    }

    private static Optional<LogSegment> value(Map.Entry<Long, LogSegment> entry) {
        return entry == null ? Optional.empty() : Optional.of(entry.getValue());
    }
}
