package io.krabka.bench;

import io.krabka.plugin.rsm.local.LocalRemoteStorageManager;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteStorageException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
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
 * The local remote tier against the file system under it, on the same disk. An operation is one 64 MiB segment.
 *
 * <ul>
 *   <li>copy: {@code copyLogSegmentData} of the segment and its small files, {@code fsync.enable} at its default
 *       (on), against copying the same files into a directory and forcing each file and the directory to disk:
 *       the same bytes with the same durability, without staging and renaming.</li>
 *   <li>fetch: {@code fetchLogSegment} of the whole segment read to its end, against reading the very same file
 *       through {@link Files#newInputStream}, both with one 64 KiB buffer. The file is in the page cache, so this
 *       measures what the tier adds to a read, not the disk.</li>
 * </ul>
 *
 * Each copy goes to a new segment id and is deleted after its invocation, outside the measured time.
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 3)
@Measurement(iterations = 4, time = 3)
@Fork(2)
public class LocalTierBenchmark {
    private static final int READ_BUFFER_BYTES = 64 << 10;

    /** A configured tier beside a source segment, in one scratch directory. */
    @State(Scope.Benchmark)
    public static class Tier {
        Path directory;
        SourceSegment source;
        LocalRemoteStorageManager storage;

        @Setup(Level.Trial)
        public void open() throws IOException {
            directory = Scratch.create("tier-");
            source = SourceSegment.write(Files.createDirectory(directory.resolve("source")));
            storage = new LocalRemoteStorageManager();
            storage.configure(Map.of(
                    "dir", Files.createDirectory(directory.resolve("tier")).toString()));
        }

        @TearDown(Level.Trial)
        public void close() throws IOException {
            storage.close();
            Scratch.delete(directory);
        }
    }

    /**
     * The segment id of the next Krabka copy, deleted after it. One segment stays in the partition throughout, as
     * in a tier in use, so its directory is not created and removed with every copy.
     */
    @State(Scope.Thread)
    public static class KrabkaCopy {
        RemoteLogSegmentMetadata metadata;

        @Setup(Level.Trial)
        public void resident(Tier tier) throws RemoteStorageException {
            tier.storage.copyLogSegmentData(tier.source.newCopy(), tier.source.data());
        }

        @Setup(Level.Invocation)
        public void next(Tier tier) {
            metadata = tier.source.newCopy();
        }

        @TearDown(Level.Invocation)
        public void delete(Tier tier) throws RemoteStorageException {
            tier.storage.deleteLogSegmentData(metadata);
        }
    }

    /** The directory of the next plain copy, emptied after it. */
    @State(Scope.Thread)
    public static class PlainCopy {
        Path target;

        @Setup(Level.Trial)
        public void open(Tier tier) throws IOException {
            target = Files.createDirectory(tier.directory.resolve("plain"));
        }

        @TearDown(Level.Invocation)
        public void delete() throws IOException {
            try (Stream<Path> files = Files.list(target)) {
                for (Path file : files.toList()) {
                    Files.delete(file);
                }
            }
            force(target);
        }
    }

    /** One segment copied into the tier, and the path of its {@code .log} there. */
    @State(Scope.Benchmark)
    public static class Copied {
        RemoteLogSegmentMetadata metadata;
        Path log;

        @Setup(Level.Trial)
        public void copy(Tier tier) throws IOException, RemoteStorageException {
            metadata = tier.source.newCopy();
            tier.storage.copyLogSegmentData(metadata, tier.source.data());
            try (Stream<Path> found = Files.find(
                    tier.directory.resolve("tier"),
                    3,
                    (path, attributes) -> path.toString().endsWith(".log"))) {
                List<Path> logs = found.toList();
                if (logs.size() != 1) {
                    throw new IllegalStateException("expected one .log in the tier, found " + logs);
                }
                log = logs.getFirst();
            }
            long viaTier = drain(tier.storage.fetchLogSegment(metadata, 0), new byte[READ_BUFFER_BYTES]);
            if (viaTier != SourceSegment.LOG_BYTES || Files.size(log) != SourceSegment.LOG_BYTES) {
                throw new IllegalStateException("the tier served " + viaTier + " bytes and holds " + Files.size(log)
                        + ", not the " + SourceSegment.LOG_BYTES + " copied");
            }
        }
    }

    /** Each thread's read buffer. */
    @State(Scope.Thread)
    public static class Buffer {
        final byte[] bytes = new byte[READ_BUFFER_BYTES];
    }

    @Benchmark
    public void copyKrabka(Tier tier, KrabkaCopy copy) throws RemoteStorageException {
        tier.storage.copyLogSegmentData(copy.metadata, tier.source.data());
    }

    @Benchmark
    public void copyPlainFile(Tier tier, PlainCopy copy) throws IOException {
        for (Path file : tier.source.files().values()) {
            Path target = Files.copy(file, copy.target.resolve(file.getFileName()));
            try (FileChannel channel = FileChannel.open(target, StandardOpenOption.WRITE)) {
                channel.force(true);
            }
        }
        force(copy.target);
    }

    @Benchmark
    public long fetchKrabka(Tier tier, Copied copied, Buffer buffer) throws IOException, RemoteStorageException {
        return drain(tier.storage.fetchLogSegment(copied.metadata, 0), buffer.bytes);
    }

    @Benchmark
    public long fetchPlainFile(Copied copied, Buffer buffer) throws IOException {
        return drain(Files.newInputStream(copied.log), buffer.bytes);
    }

    /** Reads a stream to its end and closes it; the number of bytes read. */
    private static long drain(InputStream stream, byte[] buffer) throws IOException {
        try (stream) {
            long total = 0;
            for (int read; (read = stream.read(buffer)) != -1; ) {
                total += read;
            }
            return total;
        }
    }

    /** Makes a directory's entries durable, as the tier does for its own. */
    private static void force(Path directory) throws IOException {
        try (FileChannel channel = FileChannel.open(directory, StandardOpenOption.READ)) {
            channel.force(true);
        }
    }
}
