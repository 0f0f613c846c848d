package io.krabka.bench;

import io.krabka.kernel.log.MappedFile;
import io.krabka.kernel.log.OffsetIndex;
import io.krabka.kernel.log.OffsetPosition;
import io.krabka.kernel.log.TimeIndex;
import io.krabka.kernel.log.TimestampOffset;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Offset-index and time-index lookups, Krabka's decoders against Apache Kafka's own {@code OffsetIndex} and
 * {@code TimeIndex}, on the same files: the indexes of a full 1 GiB segment with an entry every 4 KiB (Kafka's
 * defaults: {@code segment.bytes}, {@code index.interval.bytes}), trimmed as a rolled segment's are, each opened
 * read-only and memory-mapped as the remote index cache opens them. Targets are random over the whole segment,
 * the same sequence for both, as a consumer catching up from anywhere would ask.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
@State(Scope.Benchmark)
public class IndexLookupBenchmark {
    private static final long BASE_OFFSET = 4_000_000_000L;
    private static final long FIRST_TIMESTAMP = 1_764_460_800_000L;
    private static final int SEGMENT_BYTES = 1 << 30;
    private static final int INDEX_INTERVAL_BYTES = 4096;
    private static final int ENTRIES = SEGMENT_BYTES / INDEX_INTERVAL_BYTES;
    /** Kafka's default {@code segment.index.bytes}; a read-only index maps its file's length, not this. */
    private static final int MAX_INDEX_SIZE = 10 << 20;
    /** A power of two, so that the next target is a mask away. */
    private static final int TARGETS = 1 << 12;

    private Path directory;
    private MappedFile krabkaOffsetFile;
    private MappedFile krabkaTimeFile;
    private OffsetIndex krabkaOffsets;
    private TimeIndex krabkaTimes;
    private org.apache.kafka.storage.internals.log.OffsetIndex kafkaOffsets;
    private org.apache.kafka.storage.internals.log.TimeIndex kafkaTimes;
    private final long[] offsetTargets = new long[TARGETS];
    private final long[] timestampTargets = new long[TARGETS];

    /** Each thread's place in the target sequence. */
    @State(Scope.Thread)
    public static class Cursor {
        private int next;

        int next() {
            return next++ & (TARGETS - 1);
        }
    }

    /** Writes the index files, opens them both ways, draws the targets and checks both ways agree on them. */
    @Setup(Level.Trial)
    public void setUp() throws IOException {
        directory = Scratch.create("index-");
        Path offsetFile = directory.resolve(String.format("%020d.index", BASE_OFFSET));
        Path timeFile = directory.resolve(String.format("%020d.timeindex", BASE_OFFSET));
        SplittableRandom random = new SplittableRandom(405);
        ByteBuffer offsets = ByteBuffer.allocate(ENTRIES * OffsetIndex.ENTRY_SIZE);
        ByteBuffer times = ByteBuffer.allocate(ENTRIES * TimeIndex.ENTRY_SIZE);
        int relativeOffset = 0;
        long timestamp = FIRST_TIMESTAMP;
        for (int n = 0; n < ENTRIES; n++) {
            relativeOffset += 1 + random.nextInt(80); // 4 KiB of records of about 100 bytes
            timestamp += 1 + random.nextInt(20);
            offsets.putInt(relativeOffset).putInt(n * INDEX_INTERVAL_BYTES);
            times.putLong(timestamp).putInt(relativeOffset);
        }
        Files.write(offsetFile, offsets.array());
        Files.write(timeFile, times.array());

        krabkaOffsetFile = MappedFile.open(offsetFile);
        krabkaTimeFile = MappedFile.open(timeFile);
        krabkaOffsets = new OffsetIndex(krabkaOffsetFile.buffer(), BASE_OFFSET, offsetFile.toString());
        krabkaTimes = new TimeIndex(krabkaTimeFile.buffer(), BASE_OFFSET, timeFile.toString());
        kafkaOffsets = new org.apache.kafka.storage.internals.log.OffsetIndex(
                offsetFile.toFile(), BASE_OFFSET, MAX_INDEX_SIZE, false);
        kafkaTimes = new org.apache.kafka.storage.internals.log.TimeIndex(
                timeFile.toFile(), BASE_OFFSET, MAX_INDEX_SIZE, false);

        for (int n = 0; n < TARGETS; n++) {
            offsetTargets[n] = BASE_OFFSET + random.nextLong(relativeOffset + 100L);
            timestampTargets[n] = FIRST_TIMESTAMP + random.nextLong(timestamp - FIRST_TIMESTAMP + 100L);
        }
        checkAgreement();
    }

    /** A benchmark of a wrong answer is worthless: both must answer every target alike. */
    private void checkAgreement() {
        if (krabkaOffsets.entries() != kafkaOffsets.entries() || krabkaTimes.entries() != kafkaTimes.entries()) {
            throw new IllegalStateException("entry counts differ: Krabka " + krabkaOffsets.entries() + "/"
                    + krabkaTimes.entries() + ", Kafka " + kafkaOffsets.entries() + "/" + kafkaTimes.entries());
        }
        for (int n = 0; n < TARGETS; n++) {
            OffsetPosition mine = krabkaOffsets.lookup(offsetTargets[n]);
            var theirs = kafkaOffsets.lookup(offsetTargets[n]);
            if (mine.offset() != theirs.offset() || mine.position() != theirs.position()) {
                throw new IllegalStateException(
                        "offset " + offsetTargets[n] + ": Krabka " + mine + ", Kafka " + theirs);
            }
            TimestampOffset mineAt = krabkaTimes.lookup(timestampTargets[n]);
            var theirsAt = kafkaTimes.lookup(timestampTargets[n]);
            if (mineAt.timestamp() != theirsAt.timestamp() || mineAt.offset() != theirsAt.offset()) {
                throw new IllegalStateException(
                        "timestamp " + timestampTargets[n] + ": Krabka " + mineAt + ", Kafka " + theirsAt);
            }
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        krabkaOffsetFile.close();
        krabkaTimeFile.close();
        kafkaOffsets.close();
        kafkaTimes.close();
        Scratch.delete(directory);
    }

    @Benchmark
    public OffsetPosition offsetLookupKrabka(Cursor cursor) {
        return krabkaOffsets.lookup(offsetTargets[cursor.next()]);
    }

    @Benchmark
    public org.apache.kafka.storage.internals.log.OffsetPosition offsetLookupKafka(Cursor cursor) {
        return kafkaOffsets.lookup(offsetTargets[cursor.next()]);
    }

    @Benchmark
    public TimestampOffset timeLookupKrabka(Cursor cursor) {
        return krabkaTimes.lookup(timestampTargets[cursor.next()]);
    }

    @Benchmark
    public org.apache.kafka.storage.internals.log.TimestampOffset timeLookupKafka(Cursor cursor) {
        return kafkaTimes.lookup(timestampTargets[cursor.next()]);
    }
}
