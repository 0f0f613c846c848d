package io.krabka.kernel.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.common.TopicPartition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Kafka's LogSegmentsTest lookups over real segments. */
class LogSegmentsTest {

    @TempDir
    Path tempDir;

    Path dir;
    final TestTime time = new TestTime();
    LogSegments segments;

    @BeforeEach
    void create() throws IOException {
        dir = Files.createDirectory(tempDir.resolve("topic-0"));
        segments = new LogSegments(new TopicPartition("topic", 0));
    }

    @AfterEach
    void close() throws IOException {
        segments.close();
    }

    private LogSegment segment(long baseOffset) throws IOException {
        return LogSegment.open(dir, baseOffset, new SegmentConfig(1024, 4096, 0), time, 0, false);
    }

    private static List<Long> bases(Collection<LogSegment> segments) {
        return segments.stream().map(LogSegment::baseOffset).toList();
    }

    @Test
    void anEmptyMapHasNoSegments() {
        assertTrue(segments.isEmpty());
        assertFalse(segments.nonEmpty());
        assertEquals(0, segments.numberOfSegments());
        assertEquals(Optional.empty(), segments.firstSegment());
        assertEquals(Optional.empty(), segments.lastSegment());
        assertEquals(OptionalLong.empty(), segments.firstSegmentBaseOffset());
        assertEquals(Optional.empty(), segments.floorSegment(5));
        assertThrows(NoSuchElementException.class, segments::activeSegment);
        assertEquals(List.of(), bases(segments.values(0, 10)));
    }

    @Test
    void segmentsAreKeptByBaseOffsetAndReplacedAtTheSameOne() throws IOException {
        LogSegment first = segment(1);
        LogSegment replaced = segment(2);
        assertEquals(null, segments.add(first));
        segments.add(replaced);
        LogSegment replacement = LogSegment.open(
                Files.createDirectory(dir.resolve("other")), 2, new SegmentConfig(1024, 4096, 0), time, 0, false);
        assertSame(replaced, segments.add(replacement));
        replaced.close();
        assertEquals(2, segments.numberOfSegments());
        assertSame(replacement, segments.get(2).orElseThrow());
        assertTrue(segments.contains(1));
        assertFalse(segments.contains(3));
        assertEquals(List.of(1L, 2L), segments.baseOffsets());
        segments.remove(1);
        assertEquals(List.of(2L), segments.baseOffsets());
        first.close();
        segments.remove(7); // absent: nothing happens
        assertSame(replacement, segments.activeSegment());
        segments.clear();
        replacement.close();
        assertTrue(segments.isEmpty());
    }

    @Test
    void lookupsAroundEachSegment() throws IOException {
        LogSegment s1 = segment(1);
        LogSegment s5 = segment(5);
        LogSegment s10 = segment(10);
        segments.add(s10);
        segments.add(s1);
        segments.add(s5);
        assertEquals(List.of(1L, 5L, 10L), bases(segments.values()));
        assertSame(s1, segments.firstSegment().orElseThrow());
        assertEquals(OptionalLong.of(1), segments.firstSegmentBaseOffset());
        assertEquals(1L, segments.firstEntry().orElseThrow().getKey());
        assertSame(s10, segments.lastSegment().orElseThrow());
        assertEquals(10L, segments.lastEntry().orElseThrow().getKey());
        assertSame(s10, segments.activeSegment());

        assertEquals(Optional.empty(), segments.floorSegment(0));
        assertSame(s1, segments.floorSegment(1).orElseThrow());
        assertSame(s1, segments.floorSegment(4).orElseThrow());
        assertSame(s5, segments.floorSegment(5).orElseThrow());
        assertSame(s10, segments.floorSegment(Long.MAX_VALUE).orElseThrow());

        assertEquals(Optional.empty(), segments.lowerSegment(1));
        assertSame(s1, segments.lowerSegment(5).orElseThrow());
        assertSame(s5, segments.lowerSegment(6).orElseThrow());

        assertSame(s1, segments.higherSegment(0).orElseThrow());
        assertSame(s5, segments.higherSegment(1).orElseThrow());
        assertSame(s10, segments.higherSegment(9).orElseThrow());
        assertEquals(Optional.empty(), segments.higherSegment(10));
        assertEquals(5L, segments.higherEntry(4).orElseThrow().getKey());

        assertEquals(List.of(5L, 10L), bases(segments.higherSegments(1)));
        assertEquals(List.of(5L, 10L), bases(segments.higherSegments(4)));
        assertEquals(List.of(), bases(segments.higherSegments(10)));
    }

    @Test
    void valuesInARangeStartAtTheSegmentHoldingItsStart() throws IOException {
        for (long base : new long[] {1, 5, 10, 15}) {
            segments.add(segment(base));
        }
        assertEquals(List.of(), bases(segments.values(7, 7)));
        assertEquals(List.of(1L), bases(segments.values(0, 5)));
        assertEquals(List.of(1L, 5L), bases(segments.values(1, 6)));
        assertEquals(List.of(5L, 10L), bases(segments.values(7, 15)));
        assertEquals(List.of(5L, 10L, 15L), bases(segments.values(7, 16)));
        assertEquals(List.of(15L), bases(segments.values(20, 30)));
        assertThrows(IllegalArgumentException.class, () -> segments.values(10, 9));

        assertEquals(List.of(1L, 5L, 10L), bases(segments.nonActiveLogSegmentsFrom(0)));
        assertEquals(List.of(5L, 10L), bases(segments.nonActiveLogSegmentsFrom(7)));
        assertEquals(List.of(), bases(segments.nonActiveLogSegmentsFrom(15)));
        assertEquals(List.of(), bases(segments.nonActiveLogSegmentsFrom(16)));
    }

    @Test
    void sizesFilteringAndRenamesCoverEverySegment() throws IOException {
        LogSegment s0 = segment(0);
        LogSegment s10 = segment(10);
        segments.add(s0);
        segments.add(s10);
        s0.append(2, TestBatches.records(TestBatches.batch(0, 3, TestBatches.T0)));
        s10.append(10, TestBatches.records(TestBatches.batch(10, 1, TestBatches.T0)));
        assertEquals((long) s0.size() + s10.size(), segments.sizeInBytes());
        assertEquals(s0.size(), LogSegments.sizeInBytes(List.of(s0)));
        assertEquals(List.of(10L), bases(segments.filter(s -> s.baseOffset() > 5)));

        Path moved = tempDir.resolve("topic-0.moved");
        Files.move(dir, moved);
        segments.updateParentDir(moved);
        assertEquals(moved.resolve(s0.log().file().getFileName()), s0.log().file());
        assertEquals(moved, s10.offsetIndex().file().getParent());
        segments.close();
        assertTrue(Files.exists(moved.resolve("00000000000000000010.log")));
    }

    @Test
    void closingTheHandlersClosesEverySegmentWithoutWriting() throws IOException {
        LogSegment s0 = segment(0);
        segments.add(s0);
        s0.append(0, TestBatches.records(TestBatches.batch(0, 1, TestBatches.T0)));
        segments.closeHandlers();
        assertFalse(s0.log().channel().isOpen());
        assertEquals(1024, Files.size(s0.offsetIndex().file()), "closing the handlers does not trim");
    }
}
