package io.krabka.bench.broker;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;

/**
 * Tiered storage, whole broker: how fast Krabka copies closed segments to the {@code local} remote tier against a
 * plain copy of the same files on the same disk (each file forced to disk, as the tier does), and how fast Kafka's
 * ConsumerPerformance reads a topic from the remote tier against the same records read from the local log. Each
 * round starts a broker on an empty directory, produces the same records into a local topic and a topic to tier
 * (tiering off while producing), copies the closed segments by hand (the reference), turns tiering on and times the
 * copies until only the active segment is local, then reads both topics. Medians over the rounds, as ratios. Run by
 * {@code krabka-benchmarks/tiered-perf}.
 *
 * <p>Arguments: {@code --rounds N} (default 3), {@code --megabytes M} per topic (default 512), {@code --partitions P}
 * per topic (default 1; the consumer then reads them all, a fetch several remote partitions at once). System
 * properties as {@link BrokerPerf}'s.
 */
public final class TieredPerf {
    private static final int RECORD_SIZE = 1024;
    private static final String SEGMENT_BYTES = String.valueOf(64 * 1024 * 1024);

    private TieredPerf() {}

    /** Runs the rounds and prints the table; exit 2 for a wrong argument. */
    public static void main(String[] args) throws Exception {
        PerfArguments arguments = PerfArguments.parse("tiered-perf", args, 3, 512, true);
        int rounds = arguments.rounds();
        int megabytes = arguments.megabytes();
        Path java = Path.of(System.getProperty("bench.java"));
        Path work = Path.of(System.getProperty("bench.work"));
        PerfTools tools = new PerfTools(java, Path.of(System.getProperty("bench.kafka.libs")));
        List<double[]> results = new ArrayList<>();
        for (int round = 0; round < rounds; round++) {
            Path dir = Files.createDirectories(work.resolve("round-" + round));
            Path tier = Files.createDirectories(dir.resolve("tier"));
            try (Broker broker = Broker.Krabka.start(
                    java,
                    Path.of(System.getProperty("bench.krabka.dist")),
                    dir,
                    Map.of(
                            "rsm.config.dir",
                            tier.toString(),
                            "remote.log.manager.task.interval.ms",
                            "100",
                            "log.retention.check.interval.ms",
                            "1000"))) {
                results.add(round(broker, tools, dir, megabytes, arguments.partitions()));
            }
            System.err.printf(Locale.ROOT, "round %d of %d done%n", round + 1, rounds);
        }
        System.out.print(table(results));
    }

    /** One round: {copy MB/s, plain copy MB/s, remote consume MB/s, local consume MB/s}. */
    private static double[] round(Broker broker, PerfTools tools, Path dir, int megabytes, int partitions)
            throws Exception {
        int records = (int) (megabytes * 1_048_576L / RECORD_SIZE);
        String tiered = "tiered";
        try (Admin admin =
                Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
            admin.createTopics(List.of(
                            new NewTopic("local", partitions, (short) 1)
                                    .configs(Map.of("segment.bytes", SEGMENT_BYTES)),
                            new NewTopic(tiered, partitions, (short) 1)
                                    .configs(Map.of("segment.bytes", SEGMENT_BYTES, "local.retention.bytes", "1"))))
                    .all()
                    .get(1, TimeUnit.MINUTES);
            tools.produce(
                    dir.resolve("local-produce.out"), broker.bootstrapServers(), "local", records, RECORD_SIZE, "1");
            tools.produce(
                    dir.resolve("tiered-produce.out"), broker.bootstrapServers(), tiered, records, RECORD_SIZE, "1");

            List<Path> partitionDirs = new ArrayList<>();
            List<Path> closed = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                partitionDirs.add(dir.resolve("data").resolve(tiered + "-" + p));
                closed.addAll(closedSegmentFiles(partitionDirs.getLast()));
            }
            long bytes = size(closed);
            double plainMbPerSec =
                    bytes / 1_048_576.0 / plainCopy(closed, Files.createDirectories(dir.resolve("plain-copy")));

            long start = System.nanoTime();
            admin.incrementalAlterConfigs(Map.of(
                            new ConfigResource(ConfigResource.Type.TOPIC, tiered),
                            List.of(new AlterConfigOp(
                                    new ConfigEntry("remote.storage.enable", "true"), AlterConfigOp.OpType.SET))))
                    .all()
                    .get(1, TimeUnit.MINUTES);
            for (int p = 0; p < partitions; p++) {
                TopicPartition partition = new TopicPartition(tiered, p);
                long lastClosedOffset = activeBase(partitionDirs.get(p)) - 1;
                while (offset(admin, partition, OffsetSpec.latestTiered()) < lastClosedOffset) {
                    Thread.sleep(20);
                }
            }
            double copySeconds = (System.nanoTime() - start) / 1e9;
            for (Path partitionDir : partitionDirs) {
                while (closedSegmentFiles(partitionDir).stream()
                        .anyMatch(f -> f.toString().endsWith(".log"))) {
                    Thread.sleep(100);
                }
            }
            PerfTools.Consumed remote = tools.consume(
                    dir.resolve("tiered-consume.out"), broker.bootstrapServers(), tiered, records, "tiered-group");
            PerfTools.Consumed local = tools.consume(
                    dir.resolve("local-consume.out"), broker.bootstrapServers(), "local", records, "local-group");
            return new double[] {bytes / 1_048_576.0 / copySeconds, plainMbPerSec, remote.mbPerSec(), local.mbPerSec()};
        }
    }

    /** The files of every segment but the active one: what the tier copies (the log and its indexes). */
    private static List<Path> closedSegmentFiles(Path partitionDir) throws IOException {
        long active = activeBase(partitionDir);
        try (Stream<Path> files = Files.list(partitionDir)) {
            return files.filter(f -> f.getFileName().toString().matches("\\d{20}\\.(log|index|timeindex)"))
                    .filter(f -> Long.parseLong(f.getFileName().toString().substring(0, 20)) < active)
                    .sorted()
                    .toList();
        }
    }

    private static long activeBase(Path partitionDir) throws IOException {
        try (Stream<Path> files = Files.list(partitionDir)) {
            return files.map(f -> f.getFileName().toString())
                    .filter(n -> n.matches("\\d{20}\\.log"))
                    .mapToLong(n -> Long.parseLong(n.substring(0, 20)))
                    .max()
                    .orElseThrow();
        }
    }

    /** Copies the files and forces each to disk, then the directory; the seconds it took. */
    private static double plainCopy(List<Path> files, Path target) throws IOException {
        long start = System.nanoTime();
        for (Path file : files) {
            // Named after its partition too: the partitions' segments share their file names.
            Path copy = target.resolve(file.getParent().getFileName() + "-" + file.getFileName());
            Files.copy(file, copy);
            try (FileChannel channel = FileChannel.open(copy, StandardOpenOption.WRITE)) {
                channel.force(true);
            }
        }
        try (FileChannel channel = FileChannel.open(target, StandardOpenOption.READ)) {
            channel.force(true);
        }
        return (System.nanoTime() - start) / 1e9;
    }

    private static long size(List<Path> files) throws IOException {
        long total = 0;
        for (Path file : files) {
            total += Files.size(file);
        }
        return total;
    }

    private static long offset(Admin admin, TopicPartition partition, OffsetSpec spec)
            throws InterruptedException, ExecutionException, TimeoutException {
        return admin.listOffsets(Map.of(partition, spec))
                .partitionResult(partition)
                .get(1, TimeUnit.MINUTES)
                .offset();
    }

    private static String table(List<double[]> rounds) {
        String[] names = {
            "copy to the local tier MB/s",
            "plain copy + fsync MB/s",
            "consume from remote MB/s",
            "consume from local MB/s"
        };
        double[] medians = new double[names.length];
        for (int i = 0; i < names.length; i++) {
            int column = i;
            medians[i] =
                    PerfArguments.median(rounds.stream().map(r -> r[column]).toList());
        }
        StringBuilder table = new StringBuilder();
        for (int i = 0; i < names.length; i++) {
            table.append(String.format(Locale.ROOT, "%-30s %10.1f%n", names[i], medians[i]));
        }
        table.append(
                String.format(Locale.ROOT, "%-30s %10.2f%n", "copy ratio (tier / plain)", medians[0] / medians[1]));
        table.append(String.format(
                Locale.ROOT, "%-30s %10.2f%n", "consume ratio (remote / local)", medians[2] / medians[3]));
        return table.toString();
    }
}
