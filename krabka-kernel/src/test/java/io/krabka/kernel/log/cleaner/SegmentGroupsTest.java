package io.krabka.kernel.log.cleaner;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.krabka.kernel.log.LogSegment;
import io.krabka.kernel.log.SegmentConfig;
import io.krabka.kernel.log.TestTime;
import io.krabka.kernel.record.Compression;
import io.krabka.kernel.record.MemoryRecords;
import io.krabka.kernel.record.RecordBatchBuilder;
import io.krabka.kernel.record.TimestampType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** How segments are grouped into one cleaned segment each: within the size, index and offset bounds. */
class SegmentGroupsTest {

    @TempDir
    Path dir;

    private final List<LogSegment> opened = new ArrayList<>();

    @AfterEach
    void close() throws IOException {
        for (LogSegment segment : opened) {
            segment.close();
        }
    }

    /** A segment at {@code baseOffset} of {@code batches} batches of one 100-byte record, an index entry each. */
    private LogSegment segment(long baseOffset, int batches) throws IOException {
        LogSegment segment = LogSegment.open(dir, baseOffset, new SegmentConfig(1024, 0, 0), new TestTime(), 0, false);
        opened.add(segment);
        for (int i = 0; i < batches; i++) {
            ByteBuffer batch = new RecordBatchBuilder(Compression.NONE, TimestampType.CREATE_TIME, baseOffset + i)
                    .append(1_000L, "k".getBytes(), new byte[100])
                    .build();
            segment.append(baseOffset + i, MemoryRecords.readableRecords(batch, "test", 0));
        }
        return segment;
    }

    private static List<List<Long>> baseOffsets(List<List<LogSegment>> groups) {
        return groups.stream()
                .map(group -> group.stream().map(LogSegment::baseOffset).toList())
                .toList();
    }

    @Test
    void segmentsGroupWhileTheirRecordsFitInASegment() throws IOException {
        List<LogSegment> segments = List.of(segment(0, 3), segment(3, 3), segment(6, 3), segment(9, 3));
        int size = segments.getFirst().size();

        assertEquals(
                List.of(List.of(0L, 3L, 6L, 9L)),
                baseOffsets(SegmentGroups.groupSegmentsBySize(segments, 4 * size, 1 << 20, 12)));
        assertEquals(
                List.of(List.of(0L, 3L), List.of(6L, 9L)),
                baseOffsets(SegmentGroups.groupSegmentsBySize(segments, 2 * size + size / 2, 1 << 20, 12)));
        assertEquals(
                List.of(List.of(0L), List.of(3L), List.of(6L), List.of(9L)),
                baseOffsets(SegmentGroups.groupSegmentsBySize(segments, size, 1 << 20, 12)));
    }

    @Test
    void segmentsGroupWhileTheirIndexesFitInAnIndex() throws IOException {
        List<LogSegment> segments = List.of(segment(0, 3), segment(3, 3), segment(6, 3));
        int index = segments.getFirst().offsetIndex().sizeInBytes();

        assertEquals(
                List.of(List.of(0L, 3L), List.of(6L)),
                baseOffsets(SegmentGroups.groupSegmentsBySize(segments, Integer.MAX_VALUE, 2 * index, 9)));
    }

    @Test
    void aGroupsOffsetsStayWithinWhatItsIndexesHoldRelativeToItsBase() throws IOException {
        long far = Integer.MAX_VALUE + 10L;
        List<LogSegment> segments = List.of(segment(0, 1), segment(100, 1), segment(far, 1));

        // A segment's last offset is taken as the next one's base minus one, without reading it: the segment at
        // 100 may hold offsets up to far - 1, too far from 0; the one at far ends below far + 1, near enough to 100.
        assertEquals(
                List.of(List.of(0L), List.of(100L, far)),
                baseOffsets(SegmentGroups.groupSegmentsBySize(segments, Integer.MAX_VALUE, 1 << 20, far + 1)));
        // An empty segment adds no offsets: it joins whatever its base.
        List<LogSegment> withEmpty = List.of(segment(far + 5, 1), segment(2 * far, 0));
        assertEquals(
                List.of(List.of(far + 5, 2 * far)),
                baseOffsets(SegmentGroups.groupSegmentsBySize(withEmpty, Integer.MAX_VALUE, 1 << 20, 2 * far + 1)));
    }
}
