package io.krabka.it;

import io.krabka.it.LogEntry.Data;
import io.krabka.it.LogEntry.HeaderEntry;
import io.krabka.it.LogEntry.Marker;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.internal.ControlRecordType;

/**
 * Known records produced to one partition with kafka-clients, in phases that make the log hold uncompressed and
 * gzip batches of many sizes, idempotent and transactional batches, and an aborted and a committed transaction:
 * the log a test then expects to find, entry by entry.
 */
final class TieredWorkload {
    private static final int PLAIN_RECORDS = 3000;
    private static final int TRANSACTION_RECORDS = 200;

    private final String bootstrapServers;
    private final String topic;
    private final long baseTimestamp;
    private final List<LogEntry> expected = new ArrayList<>();
    private int sequence;

    /**
     * @param baseTimestamp the create time of the first record; later ones are mostly later, a few go back
     */
    TieredWorkload(String bootstrapServers, String topic, long baseTimestamp) {
        this.bootstrapServers = bootstrapServers;
        this.topic = topic;
        this.baseTimestamp = baseTimestamp;
    }

    /** Produces every phase, each acknowledged before the next begins, so the log's order is the order here. */
    void run() throws ExecutionException, InterruptedException {
        try (Producer<byte[], byte[]> plain = producer(Map.of())) {
            sendAll(plain, PLAIN_RECORDS, false);
        }
        try (Producer<byte[], byte[]> transactional =
                producer(Map.of(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "krabka-it-tx"))) {
            transactional.initTransactions();
            transactional.beginTransaction();
            sendAll(transactional, TRANSACTION_RECORDS, true);
            transactional.abortTransaction();
            expected.add(new Marker(ControlRecordType.ABORT));
            transactional.beginTransaction();
            sendAll(transactional, TRANSACTION_RECORDS, true);
            transactional.commitTransaction();
            expected.add(new Marker(ControlRecordType.COMMIT));
        }
        try (Producer<byte[], byte[]> gzip = producer(Map.of(ProducerConfig.COMPRESSION_TYPE_CONFIG, "gzip"))) {
            sendAll(gzip, PLAIN_RECORDS, false);
        }
    }

    /** The log the phases produced, in offset order, from offset 0. */
    List<LogEntry> expected() {
        return List.copyOf(expected);
    }

    private void sendAll(Producer<byte[], byte[]> producer, int count, boolean transactional)
            throws ExecutionException, InterruptedException {
        List<Future<RecordMetadata>> acks = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            Data record = next(transactional);
            ProducerRecord<byte[], byte[]> send =
                    new ProducerRecord<>(topic, 0, record.timestamp(), record.key(), record.value());
            record.headers().forEach(h -> send.headers().add(new RecordHeader(h.key(), h.value())));
            acks.add(producer.send(send));
            expected.add(record);
        }
        producer.flush();
        for (Future<RecordMetadata> ack : acks) {
            ack.get();
        }
    }

    /**
     * The next record: sizes from 60 to 1,459 bytes so that batches differ in size and the sparse offset index
     * skips some; no key every 13th; zero to three headers, one with a null value; every 11th record's timestamp
     * goes back, so that the time index must not assume order.
     */
    private Data next(boolean transactional) {
        int n = sequence++;
        byte[] key = n % 13 == 0 ? null : ("key-" + n).getBytes(StandardCharsets.UTF_8);
        byte[] value = new byte[60 + (n * 7919) % 1400];
        new Random(n).nextBytes(value);
        List<HeaderEntry> headers = new ArrayList<>();
        if (n % 5 != 0) {
            headers.add(new HeaderEntry("seq", ByteBuffer.allocate(4).putInt(n).array()));
        }
        if (n % 3 == 0) {
            headers.add(new HeaderEntry("phase", (transactional ? "tx" : "plain").getBytes(StandardCharsets.UTF_8)));
        }
        if (n % 17 == 0) {
            headers.add(new HeaderEntry("none", null));
        }
        long timestamp = baseTimestamp + n * 5L - (n % 11 == 0 ? 300 : 0);
        return new Data(timestamp, key, value, headers, transactional);
    }

    private Producer<byte[], byte[]> producer(Map<String, Object> extra) {
        return TestProducers.create(bootstrapServers, extra);
    }
}
