package io.krabka.it;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Apache Kafka 4.4.0's own {@code kafka-dump-log} ({@code org.apache.kafka.tools.DumpLogSegments} of kafka-tools),
 * run in a child JVM on the reference jars over given files, its output parsed into a {@link DumpReport}: the judge
 * of whether files are in Kafka's format. What it prints, and what it takes for an error:
 *
 * <ul>
 *   <li>{@code .log}: a line per batch, ending {@code isvalid: false} where the CRC does not match
 *       ({@link DumpError.InvalidBatch}); with deep iteration a line per record; {@code Found <n> invalid bytes at
 *       the end of <name>} for a torn tail or a length past the end ({@link DumpError.InvalidBytes}); a summary of
 *       non-consecutive offsets after all files ({@link DumpError.NonConsecutiveOffsets}). A batch it cannot read
 *       (a length below 14, a body that does not decompress or parse) stops it ({@link DumpError.Aborted}).</li>
 *   <li>{@code .index}, with --verify-index-only: every entry checked against the batch at its position, summarized
 *       as {@code Mismatches in :<path>} ({@link DumpError.OffsetIndexMismatch}); a position past the end of the log
 *       or inside a batch stops it. With --index-sanity-check: the broker's start-up check (size a multiple of 8, last
 *       offset not below the base offset), {@code passed sanity check.} or a CorruptIndexException that stops it.</li>
 *   <li>{@code .timeindex}: likewise, with timestamp mismatches, out-of-order timestamps and offsets that are no
 *       batch's last offset ({@link DumpError.TimestampMismatch}, {@link DumpError.TimestampOutOfOrder},
 *       {@link DumpError.IndexedOffsetNotFound}); the sanity check also wants the last timestamp not below the first,
 *       which the preallocated index of a killed broker's active segment fails.</li>
 *   <li>{@code .snapshot}: a line per producer, or the CorruptSnapshotException message
 *       ({@link DumpError.CorruptSnapshot}).</li>
 *   <li>{@code .txnindex}: a line per aborted transaction; a bad version stops it. A partial last entry is silently
 *       ignored: DumpLogSegments does not judge a truncated transaction index.</li>
 * </ul>
 *
 * When it stops on a file, the files after it are not dumped and the summaries of the files before it are lost;
 * this runner then dumps the files after it, and those before it again where they may have had summaries, so that
 * every file is judged and every error reported. The summaries come in Kafka's hash-map order: compare errors of
 * several files as a set.
 */
final class DumpLogSegments {
    static final String KAFKA_VERSION = "4.4.0";

    private static final String MAIN_CLASS = "org.apache.kafka.tools.DumpLogSegments";
    private static final Set<String> SUFFIXES = Set.of(".log", ".index", ".timeindex", ".txnindex", ".snapshot");
    /** Characters of {@code --files} per run: Linux limits one argument to 128 KiB. */
    private static final int MAX_FILES_ARGUMENT = 100_000;

    private static final Duration TIMEOUT = Duration.ofMinutes(5);

    /** DumpLogSegments' options that decide what it checks. */
    enum Option {
        /** {@code --deep-iteration}: every record of every batch, decompressed. */
        DEEP_ITERATION("--deep-iteration"),
        /** {@code --verify-index-only}: check index entries against the log without printing them. */
        VERIFY_INDEX_ONLY("--verify-index-only"),
        /** {@code --index-sanity-check}: only the check the broker runs on an index when it opens a log. */
        INDEX_SANITY_CHECK("--index-sanity-check");

        private final String flag;

        Option(String flag) {
            this.flag = flag;
        }
    }

    private final Path workDir;
    private final AtomicInteger runs = new AtomicInteger();

    /**
     * @param workDir where each run's command ({@code dump-log-segments-<n>.cmd}) and output
     *                ({@code dump-log-segments-<n>.txt}) are kept, for failure messages
     */
    DumpLogSegments(Path workDir) throws IOException {
        this.workDir = Files.createDirectories(workDir);
        try (InputStream in = DumpLogSegments.class.getResourceAsStream("/reference-kafka-log4j2.properties")) {
            Files.copy(in, workDir.resolve("log4j2.properties"), StandardCopyOption.REPLACE_EXISTING);
        }
    }

    /**
     * Kafka's whole judgement of files: deep iteration over the logs with the offset and time indexes verified
     * against them and the snapshots and transaction indexes read; then the sanity check of every index.
     */
    DumpCheck check(List<Path> files) throws IOException, InterruptedException {
        DumpReport deep = dump(EnumSet.of(Option.DEEP_ITERATION, Option.VERIFY_INDEX_ONLY), files);
        List<Path> indexes = files.stream()
                .filter(f -> suffix(f).equals(".index") || suffix(f).equals(".timeindex"))
                .toList();
        return new DumpCheck(deep, dump(EnumSet.of(Option.INDEX_SANITY_CHECK), indexes));
    }

    /**
     * Dumps files with the given options.
     *
     * @throws IllegalArgumentException if a file does not exist or is of no kind DumpLogSegments dumps
     * @throws IllegalStateException    if it fails in a way that is no judgement of a file (bad arguments, a hang)
     */
    DumpReport dump(Set<Option> options, List<Path> files) throws IOException, InterruptedException {
        List<Path> absolute = new ArrayList<>();
        for (Path file : files) {
            if (!SUFFIXES.contains(suffix(file)) || !Files.isRegularFile(file)) {
                throw new IllegalArgumentException("not a file DumpLogSegments dumps (" + SUFFIXES + "): " + file);
            }
            absolute.add(file.toAbsolutePath().normalize());
        }
        List<DumpReport> reports = new ArrayList<>();
        int from = 0;
        while (from < absolute.size()) {
            int to = from;
            int length = 0;
            while (to < absolute.size()
                    && (to == from || length + absolute.get(to).toString().length() + 1 <= MAX_FILES_ARGUMENT)) {
                length += absolute.get(to++).toString().length() + 1;
            }
            reports.add(dumpAll(options, absolute.subList(from, to)));
            from = to;
        }
        return DumpReport.concat(reports);
    }

    /** One run; where it stops on a file, that file's report, and the files before and after it run again. */
    private DumpReport dumpAll(Set<Option> options, List<Path> files) throws IOException, InterruptedException {
        if (files.isEmpty()) {
            return DumpReport.concat(List.of());
        }
        Path output = run(options, files);
        DumpReport report = DumpOutputParser.parse(Files.readAllLines(output, StandardCharsets.UTF_8), files, output);
        Path stopped = report.errors().stream()
                .filter(e -> e instanceof DumpError.Aborted)
                .map(DumpError::file)
                .findFirst()
                .orElse(null);
        if (stopped == null) {
            return report;
        }
        int at = files.indexOf(stopped);
        List<Path> before = files.subList(0, at);
        // Only deep iteration and full index dumps print summaries; a sanity check alone lost nothing before.
        boolean summarizes = options.contains(Option.DEEP_ITERATION) || !options.contains(Option.INDEX_SANITY_CHECK);
        DumpReport judgedBefore = summarizes ? dumpAll(options, before) : report.only(before);
        return DumpReport.concat(List.of(
                judgedBefore, report.only(List.of(stopped)), dumpAll(options, files.subList(at + 1, files.size()))));
    }

    /** Runs DumpLogSegments once; returns its output file. It exits 1 where it stops on a file, 0 otherwise. */
    private Path run(Set<Option> options, List<Path> files) throws IOException, InterruptedException {
        int n = runs.incrementAndGet();
        Path output = workDir.resolve("dump-log-segments-" + n + ".txt");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                // Kafka's jars use sun.misc.Unsafe and zstd-jni loads a native library: keep the JDK's warnings out
                // of the output.
                "--enable-native-access=ALL-UNNAMED",
                "--sun-misc-unsafe-memory-access=allow",
                "-Xmx512m",
                "-Dlog4j2.configurationFile=" + workDir.resolve("log4j2.properties"),
                "-Dkafka.logs.dir=" + workDir.resolve("tool-logs"),
                "-cp",
                ReferenceKafka.libs(KAFKA_VERSION) + "/*",
                MAIN_CLASS));
        options.forEach(o -> command.add(o.flag));
        command.add("--files");
        command.add(String.join(",", files.stream().map(Path::toString).toList()));
        Files.writeString(workDir.resolve("dump-log-segments-" + n + ".cmd"), String.join(" ", command) + "\n");
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(output.toFile())
                .start();
        if (!process.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new IllegalStateException(
                    "DumpLogSegments did not finish within " + TIMEOUT + "; output so far in " + output);
        }
        int exit = process.exitValue();
        boolean stopped = Files.readAllLines(output, StandardCharsets.UTF_8).stream()
                .anyMatch(l -> l.startsWith("Exception in thread \"main\" "));
        if (exit != (stopped ? 1 : 0)) {
            throw new IllegalStateException("DumpLogSegments exited with " + exit + (stopped ? " after" : " without")
                    + " an exception; output in " + output);
        }
        return output;
    }

    private static String suffix(Path file) {
        String name = file.getFileName().toString();
        int dot = name.lastIndexOf('.');
        return dot < 0 ? "" : name.substring(dot);
    }
}
