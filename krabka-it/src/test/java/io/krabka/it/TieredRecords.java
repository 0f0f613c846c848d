package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.LongUnaryOperator;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/**
 * The records of the tiered-storage tests: record {@code n} of a partition is at offset {@code n} (one idempotent
 * producer), its key is {@code n} and its value {@link #VALUE_SIZE} bytes that follow from {@code n} alone, so a
 * reader checks every byte without keeping what was sent.
 */
final class TieredRecords {
    static final int VALUE_SIZE = 8 * 1024;
    private static final Duration WAIT = Duration.ofMinutes(5);

    private TieredRecords() {}

    /** The value of record {@code n}. */
    static byte[] value(long n) {
        byte[] value = new byte[VALUE_SIZE];
        SplittableRandom random = new SplittableRandom(n);
        for (int i = 0; i < value.length; i += 8) {
            ByteBuffer.wrap(value, i, 8).putLong(random.nextLong());
        }
        return value;
    }

    /** The number of records in about {@code mebibytes} MiB. */
    static long count(int mebibytes) {
        return mebibytes * 1024L * 1024 / VALUE_SIZE;
    }

    /** Produces records [{@code from}, {@code to}) with the create times {@code timestamp} gives. */
    static void produce(String bootstrap, TopicPartition partition, long from, long to, LongUnaryOperator timestamp)
            throws Exception {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrap,
                        ProducerConfig.ACKS_CONFIG,
                        "all",
                        ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG,
                        true,
                        ProducerConfig.LINGER_MS_CONFIG,
                        5,
                        ProducerConfig.BATCH_SIZE_CONFIG,
                        256 * 1024),
                new ByteArraySerializer(),
                new ByteArraySerializer())) {
            for (long n = from; n < to; n++) {
                producer.send(new ProducerRecord<>(
                        partition.topic(),
                        partition.partition(),
                        timestamp.applyAsLong(n),
                        ByteBuffer.allocate(8).putLong(n).array(),
                        value(n)));
            }
            producer.flush();
        }
    }

    /**
     * Reads the partition from {@code from} up to {@code end} with a new consumer and checks that it holds exactly
     * records [{@code from}, {@code end}), each where it belongs and byte for byte as produced.
     */
    static void assertReadsExactly(String bootstrap, TopicPartition partition, long from, long end) {
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                Map.of(
                        ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        bootstrap,
                        ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                        "earliest",
                        ConsumerConfig.MAX_PARTITION_FETCH_BYTES_CONFIG,
                        4 * 1024 * 1024),
                new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.assign(java.util.List.of(partition));
            consumer.seek(partition, from);
            long next = from;
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (next < end) {
                if (System.nanoTime() > deadline) {
                    throw new AssertionError("read up to " + next + " of [" + from + ", " + end + ") in " + WAIT);
                }
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(500))) {
                    assertEquals(next, record.offset(), "records in order, none missing, none twice");
                    assertEquals(next, ByteBuffer.wrap(record.key()).getLong(), "the key at " + next);
                    assertArrayEquals(value(next), record.value(), "the value at " + next);
                    next++;
                }
            }
            assertEquals(end, consumer.position(partition, Duration.ofSeconds(30)));
        }
    }

    /** Waits for {@code condition}, failing with {@code what} after a few minutes. */
    static void await(String what, CheckedCondition condition) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.holds()) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("not within " + WAIT + ": " + what);
            }
            TimeUnit.MILLISECONDS.sleep(200);
        }
    }

    /** A condition that may throw. */
    @FunctionalInterface
    interface CheckedCondition {
        boolean holds() throws Exception;
    }
}
