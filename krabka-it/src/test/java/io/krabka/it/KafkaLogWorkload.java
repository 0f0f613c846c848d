package io.krabka.it;

import io.krabka.it.LogEntry.Data;
import io.krabka.spi.common.TopicPartition;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.record.internal.CompressionType;
import org.apache.kafka.common.record.internal.ControlRecordType;

/**
 * The records a {@link KafkaLogWriter} has Kafka write, phase after phase, each acknowledged (and its transaction
 * markers written) before the next begins, so that every partition's log is known entry by entry:
 *
 * <ul>
 *   <li>{@code compressed-<type>}, two partitions for each of none, gzip, snappy, lz4 and zstd: idempotent
 *       producers compressing with that type;</li>
 *   <li>{@value #TRANSACTIONS}, two partitions: committed and aborted transactions (one in a single partition,
 *       two zstd-compressed), with idempotent records between them;</li>
 *   <li>{@value #LOG_APPEND_TIME}: message.timestamp.type=LogAppendTime, uncompressed and gzip batches;</li>
 *   <li>{@value #RECOMPRESSED}: compression.type=zstd on gzip batches, so that the broker recompresses;</li>
 *   <li>{@value #LARGE}: batches of exactly max.message.bytes and a little below; one byte more is refused;</li>
 *   <li>{@value #SMALL_INDEX}: a batch per record, an index entry per batch and 1 KiB indexes, so that segments
 *       roll because their index is full.</li>
 * </ul>
 *
 * Every topic but the last has {@value #SEGMENT_BYTES}-byte segments (Kafka 4's internal.segment.bytes, as its
 * own tests do: segment.bytes may not go below 1 MiB) and an index entry every {@value #INDEX_INTERVAL_BYTES}
 * bytes; retention is off.
 */
final class KafkaLogWorkload {
    static final String TRANSACTIONS = "transactions";
    static final String LOG_APPEND_TIME = "log-append-time";
    static final String RECOMPRESSED = "recompressed";
    static final String LARGE = "large";
    static final String SMALL_INDEX = "small-index";
    static final int SEGMENT_BYTES = 65_536;
    static final int INDEX_INTERVAL_BYTES = 4096;
    /** max.message.bytes of {@value #LARGE}. */
    static final int LARGE_MAX_MESSAGE_BYTES = 131_072;

    private static final int COMPRESSED_RECORDS_PER_PARTITION = 500;
    private static final Duration ACK_TIMEOUT = Duration.ofMinutes(2);
    private static final Duration MARKER_TIMEOUT = Duration.ofMinutes(2);

    private final String bootstrapServers;
    private final Admin admin;
    private final RecordFactory records;
    private final ProducedLogs logs;

    KafkaLogWorkload(String bootstrapServers, Admin admin, RecordFactory records, ProducedLogs logs) {
        this.bootstrapServers = bootstrapServers;
        this.admin = admin;
        this.records = records;
        this.logs = logs;
    }

    /** The topic written with {@code type} compression. */
    static String compressedTopic(CompressionType type) {
        return "compressed-" + type.name;
    }

    /** The configs of a topic with small segments and a dense offset index. */
    static Map<String, String> smallSegments() {
        return Map.of(
                "internal.segment.bytes",
                String.valueOf(SEGMENT_BYTES),
                "index.interval.bytes",
                String.valueOf(INDEX_INTERVAL_BYTES),
                "retention.ms",
                "-1");
    }

    /** The workload's topics. */
    static List<TopicSpec> topics() {
        Map<String, String> small = smallSegments();
        List<TopicSpec> topics = new ArrayList<>();
        for (CompressionType type : CompressionType.values()) {
            topics.add(new TopicSpec(compressedTopic(type), 2, small));
        }
        topics.add(new TopicSpec(TRANSACTIONS, 2, small));
        topics.add(new TopicSpec(LOG_APPEND_TIME, 1, with(small, "message.timestamp.type", "LogAppendTime")));
        topics.add(new TopicSpec(RECOMPRESSED, 1, with(small, "compression.type", "zstd")));
        topics.add(new TopicSpec(
                LARGE,
                1,
                Map.of(
                        "internal.segment.bytes",
                        String.valueOf(2 * LARGE_MAX_MESSAGE_BYTES),
                        "max.message.bytes",
                        String.valueOf(LARGE_MAX_MESSAGE_BYTES),
                        "retention.ms",
                        "-1")));
        topics.add(new TopicSpec(
                SMALL_INDEX,
                1,
                Map.of("segment.index.bytes", "1024", "index.interval.bytes", "0", "retention.ms", "-1")));
        return topics;
    }

    /** Runs every phase. */
    void run() throws Exception {
        for (CompressionType type : CompressionType.values()) {
            try (Producer<byte[], byte[]> producer = producer(Map.of(
                    ProducerConfig.COMPRESSION_TYPE_CONFIG, type.name, ProducerConfig.BATCH_SIZE_CONFIG, 8192))) {
                produce(producer, partitions(compressedTopic(type)), 2 * COMPRESSED_RECORDS_PER_PARTITION, false);
            }
        }
        transactions();
        for (String compression : List.of("none", "gzip")) {
            try (Producer<byte[], byte[]> producer =
                    producer(Map.of(ProducerConfig.COMPRESSION_TYPE_CONFIG, compression))) {
                produce(producer, partitions(LOG_APPEND_TIME), 250, false);
            }
        }
        try (Producer<byte[], byte[]> producer = producer(Map.of(ProducerConfig.COMPRESSION_TYPE_CONFIG, "gzip"))) {
            produce(producer, partitions(RECOMPRESSED), 400, false);
        }
        large();
        try (Producer<byte[], byte[]> producer =
                producer(Map.of(ProducerConfig.BATCH_SIZE_CONFIG, 0, ProducerConfig.LINGER_MS_CONFIG, 0))) {
            produce(producer, partitions(SMALL_INDEX), 400, false);
        }
    }

    private void transactions() throws Exception {
        List<TopicPartition> both = partitions(TRANSACTIONS);
        try (Producer<byte[], byte[]> tx = producer(Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "krabka-log-tx"));
                Producer<byte[], byte[]> plain = producer(Map.of())) {
            tx.initTransactions();
            transaction(tx, both, 150, true);
            produce(plain, both, 100, false);
            transaction(tx, both, 150, false);
            transaction(tx, both.subList(0, 1), 80, false);
            transaction(tx, both, 60, true);
        }
        try (Producer<byte[], byte[]> tx = producer(Map.of(
                ProducerConfig.TRANSACTIONAL_ID_CONFIG,
                "krabka-log-tx-zstd",
                ProducerConfig.COMPRESSION_TYPE_CONFIG,
                "zstd"))) {
            tx.initTransactions();
            transaction(tx, both, 100, false);
            transaction(tx, both, 100, true);
        }
    }

    /** Batches of exactly the limit and a little below; then one byte over, which Kafka must refuse. */
    private void large() throws Exception {
        TopicPartition partition = new TopicPartition(LARGE, 0);
        try (Producer<byte[], byte[]> producer = producer(Map.of())) {
            for (int size : List.of(
                    LARGE_MAX_MESSAGE_BYTES, LARGE_MAX_MESSAGE_BYTES - 1, LARGE_MAX_MESSAGE_BYTES, 100_000, 60_000)) {
                Data record = records.ofBatchSize(size);
                acknowledge(partition, record, producer.send(RecordFactory.toSend(LARGE, 0, record)));
            }
        }
        try (Producer<byte[], byte[]> plain =
                producer(Map.of(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, false, ProducerConfig.RETRIES_CONFIG, 0))) {
            Future<RecordMetadata> refused =
                    plain.send(RecordFactory.toSend(LARGE, 0, records.ofBatchSize(LARGE_MAX_MESSAGE_BYTES + 1)));
            try {
                RecordMetadata accepted = refused.get(ACK_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
                throw new IllegalStateException(
                        "Kafka accepted a batch one byte over max.message.bytes at offset " + accepted.offset());
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof RecordTooLargeException)) {
                    throw e;
                }
            }
        }
    }

    private void transaction(
            Producer<byte[], byte[]> producer, List<TopicPartition> partitions, int count, boolean commit)
            throws Exception {
        producer.beginTransaction();
        produce(producer, partitions, count, true);
        if (commit) {
            producer.commitTransaction();
        } else {
            producer.abortTransaction();
        }
        partitions.forEach(p -> logs.marker(p, commit ? ControlRecordType.COMMIT : ControlRecordType.ABORT));
        awaitMarkers(partitions);
    }

    /**
     * Sends {@code count} records round-robin to {@code partitions} and records their acknowledgements in the
     * order sent, which is each partition's log order.
     */
    void produce(Producer<byte[], byte[]> producer, List<TopicPartition> partitions, int count, boolean transactional)
            throws Exception {
        List<Sent> sent = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            TopicPartition partition = partitions.get(i % partitions.size());
            Data record = records.next(transactional);
            sent.add(new Sent(
                    partition,
                    record,
                    producer.send(RecordFactory.toSend(partition.topic(), partition.partition(), record))));
        }
        producer.flush();
        for (Sent s : sent) {
            acknowledge(s.partition(), s.record(), s.ack());
        }
    }

    /** The workload's records, for a phase run elsewhere. */
    RecordFactory records() {
        return records;
    }

    /** A producer to the broker with the workload's defaults. */
    Producer<byte[], byte[]> producer(Map<String, Object> extra) {
        return TestProducers.create(bootstrapServers, extra);
    }

    /** The partitions of a topic of the workload. */
    static List<TopicPartition> partitions(String topic) {
        return topics().stream()
                .filter(t -> t.name().equals(topic))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no topic " + topic + " in the workload"))
                .topicPartitions();
    }

    private void acknowledge(TopicPartition partition, Data record, Future<RecordMetadata> ack) throws Exception {
        RecordMetadata metadata = ack.get(ACK_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        logs.acknowledged(partition, metadata.offset(), metadata.timestamp(), record);
    }

    /**
     * Waits until the partitions' logs end where the workload expects, markers included: a transaction's markers
     * are written after commitTransaction returns, and the next phase must not overtake them.
     */
    private void awaitMarkers(Collection<TopicPartition> partitions) throws InterruptedException {
        Map<org.apache.kafka.common.TopicPartition, OffsetSpec> latest = partitions.stream()
                .collect(Collectors.toMap(
                        p -> new org.apache.kafka.common.TopicPartition(p.topic(), p.partition()),
                        p -> OffsetSpec.latest()));
        long deadline = System.nanoTime() + MARKER_TIMEOUT.toNanos();
        Map<TopicPartition, Long> ends = Map.of();
        while (System.nanoTime() < deadline) {
            try {
                ends = admin.listOffsets(latest).all().get(30, TimeUnit.SECONDS).entrySet().stream()
                        .collect(Collectors.toMap(
                                e -> new TopicPartition(
                                        e.getKey().topic(), e.getKey().partition()),
                                e -> e.getValue().offset()));
            } catch (ExecutionException | TimeoutException e) {
                ends = Map.of(); // not answered: ask again
            }
            Map<TopicPartition, Long> answered = ends;
            if (!answered.isEmpty() && partitions.stream().allMatch(p -> answered.get(p) == logs.endOffset(p))) {
                return;
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("the transaction markers were not written within " + MARKER_TIMEOUT
                + ": logs end at " + ends + ", the workload expects "
                + partitions.stream().collect(Collectors.toMap(p -> p, logs::endOffset)));
    }

    private record Sent(TopicPartition partition, Data record, Future<RecordMetadata> ack) {}

    private static Map<String, String> with(Map<String, String> configs, String key, String value) {
        Map<String, String> all = new HashMap<>(configs);
        all.put(key, value);
        return all;
    }
}
