package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * An archive written by Apache Kafka's own LocalTieredStorage (Kafka 4.3.1 tiering a partition of uncompressed
 * and gzip batches, idempotent and transactional ones, an aborted and a committed transaction) restores as
 * Krabka's does: DumpLogSegments accepts the restored files, Krabka serves every tiered record at its offset, and a
 * read-committed consumer reads to the end, as the transaction index and producer snapshots were rebuilt.
 */
class RestoreKafkaTierIT {
    private static final String TOPIC = "tiered";

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path work;

    @Test
    void kafkasLocalTieredStorageRestoresIntoABootableDirectory() throws Exception {
        Path tier = work.resolve("kafka-tier");
        List<LogEntry.Data> produced = KafkaTierWriter.write(work.resolve("kafka"), tier, TOPIC).stream()
                .filter(LogEntry.Data.class::isInstance)
                .map(LogEntry.Data.class::cast)
                .toList();
        KrabkaCommand krabka = new KrabkaCommand(Files.createDirectories(work.resolve("runs")));
        Path restored = work.resolve("restored");
        ToolRun run = krabka.run(
                "restore", "--archive-local", tier.toString(), "--log-dir", restored.toString(), "--node-id", "1");
        assertEquals(0, run.exitCode(), run.describe());

        List<Path> files;
        try (Stream<Path> all = Files.walk(restored.resolve(TOPIC + "-0"))) {
            files = all.filter(f -> Stream.of(".log", ".index", ".timeindex", ".snapshot", ".txnindex")
                            .anyMatch(f.toString()::endsWith))
                    .sorted()
                    .toList();
        }
        assertTrue(
                files.stream().anyMatch(f -> f.toString().endsWith(".txnindex")),
                "the aborted transaction is in a rebuilt transaction index: " + files);
        assertEquals(
                List.of(),
                new DumpLogSegments(work.resolve("dump")).check(files).errors());

        try (KrabkaBroker broker = KrabkaBroker.start(
                work.resolve("krabka"), Map.of(), (bin, logDir) -> FileTrees.copy(restored, logDir))) {
            List<LogEntry.Data> read = read(broker.bootstrapServers(), "read_uncommitted");
            assertTrue(
                    read.size() > produced.size() / 2,
                    "only " + read.size() + " of " + produced.size() + " records restored");
            assertEquals(
                    produced.subList(0, read.size()).stream()
                            .map(RestoreKafkaTierIT::plain)
                            .toList(),
                    read,
                    "every tiered record, in order");
            List<LogEntry.Data> committed = read(broker.bootstrapServers(), "read_committed");
            assertTrue(committed.size() < read.size(), "the aborted records are not read committed");
        }
    }

    // What a consumer sees of a produced record: not whether it was transactional.
    private static LogEntry.Data plain(LogEntry.Data data) {
        return new LogEntry.Data(data.timestamp(), data.key(), data.value(), data.headers(), false);
    }

    private static List<LogEntry.Data> read(String bootstrap, String isolation) {
        TopicPartition partition = new TopicPartition(TOPIC, 0);
        List<LogEntry.Data> read = new ArrayList<>();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                        ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation,
                        ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false"),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.assign(List.of(partition));
            consumer.seekToBeginning(List.of(partition));
            long end = consumer.endOffsets(List.of(partition), Duration.ofMinutes(1))
                    .get(partition);
            long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
            while (consumer.position(partition, Duration.ofMinutes(1)) < end) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError(
                            isolation + ": not read to the end offset " + end + " (a transaction left open?)");
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    List<LogEntry.HeaderEntry> headers = new ArrayList<>();
                    for (Header header : record.headers()) {
                        headers.add(new LogEntry.HeaderEntry(header.key(), header.value()));
                    }
                    read.add(new LogEntry.Data(record.timestamp(), record.key(), record.value(), headers, false));
                }
            }
        }
        return read;
    }
}
