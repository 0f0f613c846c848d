package io.krabka.bench;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Locale;
import java.util.OptionalLong;

/**
 * {@code krabka restore}'s throughput against {@code cp -r} of the same archive on the same disk: the goal is
 * a ratio of at least 0.8. A {@link SyntheticArchive} is written once (not timed) and synced; then one run of each
 * side, not counted, reads it into the page cache and warms the disk up, and each round runs both sides, the first
 * alternating from round to round, each into a new directory beside the archive and followed by {@code sync} inside
 * its time (the restore forces its files; {@code cp} does not, so without the sync it would stop timing before its
 * bytes are on disk). Both read the archive from the page cache: it is read in every run and nothing is dropped.
 * MB/s is the archive's {@code .log} bytes (10^6 to the MB) over a side's time; the restore's time includes its
 * JVM's start. The restore JVM's peak RSS is {@code /usr/bin/time -v}'s; with the JVM's default heap it says how far
 * G1 let the heap grow, not what the restore needs, so one more restore, not counted, runs with a heap of
 * {@value #SMALL_HEAP}, a quarter of one segment at the default size.
 *
 * <p>{@code java -cp <classpath> io.krabka.bench.RestoreThroughput --dist DIR [--rounds N] [--total-mib M]
 * [--segment-mib S] [--partitions P] [--parallelism N] [--dir DIR]}; run by {@code krabka-benchmarks/run-restore}.
 */
public final class RestoreThroughput {
    private static final String USAGE = "usage: RestoreThroughput --dist DIR [--rounds N] [--total-mib M] "
            + "[--segment-mib S] [--partitions P] [--parallelism N] [--dir DIR]";
    private static final long MIB = 1 << 20;
    /** The heap of the last, uncounted restore: a fraction of a segment, so it shows the memory does not grow with it. */
    private static final String SMALL_HEAP = "-Xmx64m";

    private RestoreThroughput() {}

    public static void main(String[] args) throws Exception {
        Path dist = null;
        Path dir = Path.of("target/restore-bench");
        int rounds = 5;
        long totalMib = 4096;
        long segmentMib = 256;
        int partitions = 8;
        OptionalLong parallelism = OptionalLong.empty();
        for (int i = 0; i < args.length; i += 2) {
            if (i + 1 >= args.length) {
                usage(args[i] + " needs a value");
            }
            String value = args[i + 1];
            switch (args[i]) {
                case "--dist" -> dist = Path.of(value);
                case "--dir" -> dir = Path.of(value);
                case "--rounds" -> rounds = (int) positive(args[i], value);
                case "--total-mib" -> totalMib = positive(args[i], value);
                case "--segment-mib" -> segmentMib = positive(args[i], value);
                case "--partitions" -> partitions = (int) positive(args[i], value);
                case "--parallelism" -> parallelism = OptionalLong.of(positive(args[i], value));
                default -> usage("unknown argument " + args[i]);
            }
        }
        if (dist == null || !Files.isExecutable(dist.resolve("bin/krabka"))) {
            usage("--dist names no distribution with bin/krabka: " + dist);
        }
        Path work = dir.toAbsolutePath();
        Scratch.delete(work);
        Files.createDirectories(work);
        try {
            run(new SyntheticArchive(partitions, segmentMib * MIB, totalMib * MIB), work, dist, parallelism, rounds);
        } finally {
            Scratch.delete(work);
        }
    }

    private static void run(SyntheticArchive shape, Path work, Path dist, OptionalLong parallelism, int rounds)
            throws IOException, InterruptedException {
        Path archive = work.resolve("archive");
        long start = System.nanoTime();
        SyntheticArchive.Written written = shape.write(archive);
        new ProcessBuilder("sync").inheritIO().start().waitFor();
        System.out.printf(
                Locale.ROOT,
                "archive: %d partitions, %d segments of at most %d MiB, %,d bytes of .log, "
                        + "%,d records; written and synced in %.1f s%n",
                shape.partitions(),
                written.segments(),
                shape.segmentBytes() / MIB,
                written.logBytes(),
                written.records(),
                (System.nanoTime() - start) / 1e9);
        System.out.printf(
                Locale.ROOT,
                "restore: %s restore --parallelism %s%n",
                dist.resolve("bin/krabka"),
                parallelism.isPresent() ? Long.toString(parallelism.getAsLong()) : "(its default)");
        RestoreSides sides = new RestoreSides(work, archive, dist, parallelism, written);
        RestoreSides.Timing warmCopy = sides.copy();
        RestoreSides.Timing warmRestore = sides.restore();
        System.out.printf(
                Locale.ROOT,
                "warm-up, not counted: cp -r + sync %s; restore + sync %s%n",
                describe(warmCopy, written),
                describe(warmRestore, written));
        double[] copyMbps = new double[rounds];
        double[] restoreMbps = new double[rounds];
        double[] ratios = new double[rounds];
        long peakRss = warmRestore.peakRssBytes().orElse(-1);
        for (int round = 0; round < rounds; round++) {
            boolean copyFirst = round % 2 == 0;
            RestoreSides.Timing copy = copyFirst ? sides.copy() : null;
            RestoreSides.Timing restore = sides.restore();
            copy = copyFirst ? copy : sides.copy();
            copyMbps[round] = mbps(written, copy);
            restoreMbps[round] = mbps(written, restore);
            ratios[round] = restoreMbps[round] / copyMbps[round];
            peakRss = Math.max(peakRss, restore.peakRssBytes().orElse(-1));
            System.out.printf(
                    Locale.ROOT,
                    "round %d (%s first): cp -r + sync %s; restore + sync %s; ratio %.2f%n",
                    round + 1,
                    copyFirst ? "cp" : "restore",
                    describe(copy, written),
                    describe(restore, written),
                    ratios[round]);
        }
        System.out.printf(
                Locale.ROOT,
                "median over %d rounds: cp -r + sync %.0f MB/s, restore + sync %.0f MB/s; ratio "
                        + "of the medians %.2f, median of the rounds' ratios %.2f (restore/copy: the goal is at least "
                        + "0.8); restore peak RSS %s%n",
                rounds,
                median(copyMbps),
                median(restoreMbps),
                median(restoreMbps) / median(copyMbps),
                median(ratios),
                peakRss < 0 ? "not measured (no /usr/bin/time)" : peakRss / 1_000_000 + " MB");
        System.out.printf(
                Locale.ROOT,
                "bounded memory, not counted: restore with %s (segments of %d MiB) + sync %s%n",
                SMALL_HEAP,
                shape.segmentBytes() / MIB,
                describe(sides.restore(SMALL_HEAP), written));
    }

    private static double mbps(SyntheticArchive.Written written, RestoreSides.Timing timing) {
        return written.logBytes() / 1e6 / timing.seconds();
    }

    private static String describe(RestoreSides.Timing timing, SyntheticArchive.Written written) {
        return String.format(
                Locale.ROOT,
                "%.2f s (sync %.2f s) = %.0f MB/s%s",
                timing.seconds(),
                timing.syncNanos() / 1e9,
                mbps(written, timing),
                timing.peakRssBytes().isPresent()
                        ? ", peak RSS " + timing.peakRssBytes().getAsLong() / 1_000_000 + " MB"
                        : "");
    }

    private static double median(double[] values) {
        double[] sorted = values.clone();
        Arrays.sort(sorted);
        int middle = sorted.length / 2;
        return sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    private static long positive(String flag, String value) {
        try {
            long parsed = Long.parseLong(value);
            if (parsed > 0) {
                return parsed;
            }
        } catch (NumberFormatException e) {
            // Reported below.
        }
        usage(flag + " needs a positive whole number, not '" + value + "'");
        return 0;
    }

    private static void usage(String problem) {
        System.err.println("RestoreThroughput: " + problem + " (" + USAGE + ")");
        System.exit(2);
    }
}
