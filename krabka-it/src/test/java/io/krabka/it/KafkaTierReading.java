package io.krabka.it;

import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import java.io.IOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * Apache Kafka's own LocalTieredStorage reading a tier: the program {@code KafkaTierReader.java} (a test
 * resource) run from source in a child JVM on the reference jars, which holds no Krabka class.
 */
final class KafkaTierReading {
    private static final Duration TIMEOUT = Duration.ofMinutes(5);

    private KafkaTierReading() {}

    /**
     * Has Kafka fetch every segment of {@code segments}, whole, and each of its indexes from the tier in
     * {@code tierDir}, using the segments' metadata.
     *
     * @return the directory of what Kafka read: {@code <segmentId>.log}, {@code <segmentId>.<IndexType>}, or
     *         {@code <segmentId>.<IndexType>.not-found} where Kafka threw RemoteResourceNotFoundException
     */
    static Path read(Path tierDir, List<KafkaSegment> segments, Path workDir) throws IOException, InterruptedException {
        Path libs = ReferenceKafka.libs(KafkaTierWriter.KAFKA_VERSION);
        Files.createDirectories(workDir);
        Path manifest = workDir.resolve("manifest.txt");
        Files.write(
                manifest, segments.stream().map(KafkaTierReading::manifestLine).toList(), StandardCharsets.UTF_8);
        Path out = workDir.resolve("read");
        Path log = workDir.resolve("reader.log");
        List<String> command = List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Dlog4j2.configurationFile=" + resource("/reference-kafka-log4j2.properties"),
                "-Dkafka.logs.dir=" + workDir,
                "-cp",
                libs + "/*",
                resource("KafkaTierReader.java").toString(),
                tierDir.toString(),
                manifest.toString(),
                out.toString());
        Process process = new ProcessBuilder(command)
                .redirectErrorStream(true)
                .redirectOutput(log.toFile())
                .start();
        if (!process.waitFor(TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
            throw new AssertionError(
                    "Kafka's LocalTieredStorage did not read the tier within " + TIMEOUT + "; see " + log);
        }
        if (process.exitValue() != 0) {
            throw new AssertionError("Kafka's LocalTieredStorage failed to read the tier (exit " + process.exitValue()
                    + "):\n" + Files.readString(log));
        }
        return out;
    }

    private static String manifestLine(KafkaSegment segment) {
        RemoteLogSegmentMetadata m = segment.metadata();
        String epochs = m.segmentLeaderEpochs().entrySet().stream()
                .map(e -> e.getKey() + ":" + e.getValue())
                .collect(Collectors.joining(","));
        return String.join(
                " ",
                m.topicIdPartition().topic(),
                String.valueOf(m.topicIdPartition().partition()),
                m.topicIdPartition().topicId().toString(),
                m.remoteLogSegmentId().id().toString(),
                String.valueOf(m.startOffset()),
                String.valueOf(m.endOffset()),
                String.valueOf(m.maxTimestampMs()),
                String.valueOf(m.segmentSizeInBytes()),
                epochs);
    }

    private static Path resource(String name) {
        URL url = KafkaTierReading.class.getResource(name);
        if (url == null) {
            throw new IllegalStateException("no test resource " + name);
        }
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException("no test resource " + name, e);
        }
    }
}
