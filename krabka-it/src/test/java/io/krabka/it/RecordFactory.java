package io.krabka.it;

import io.krabka.it.LogEntry.Data;
import io.krabka.it.LogEntry.HeaderEntry;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;
import org.apache.kafka.common.record.internal.DefaultRecord;
import org.apache.kafka.common.record.internal.DefaultRecordBatch;

/**
 * The records of a workload, each different from the others and the same on every run: what a record is follows
 * from its sequence number alone. They cover what the record format must carry: null and empty keys and values,
 * no to four headers (one with a null value, one with an empty key), values that compress and values that do
 * not, and create times that mostly advance but sometimes go back.
 */
final class RecordFactory {
    private static final int MAX_VALUE_SIZE = 1500;

    private final long baseTimestamp;
    private int sequence;

    /**
     * @param baseTimestamp the create time of the first record; the broker must accept it (not too far in the
     *                      future), and the ones that go back must stay positive
     */
    RecordFactory(long baseTimestamp) {
        this.baseTimestamp = baseTimestamp;
    }

    /** The next record, up to {@value #MAX_VALUE_SIZE} bytes of value. */
    Data next(boolean transactional) {
        int n = sequence++;
        return new Data(timestamp(n), key(n), value(n), headers(n, transactional), transactional);
    }

    /**
     * The next record, without headers, whose batch alone (uncompressed, magic 2) is exactly {@code batchSize}
     * bytes: the size Kafka compares with max.message.bytes.
     */
    Data ofBatchSize(int batchSize) {
        int n = sequence++;
        byte[] key = ("large-" + n).getBytes(StandardCharsets.UTF_8);
        int valueSize = batchSize - DefaultRecordBatch.RECORD_BATCH_OVERHEAD - key.length;
        // The record's length and size varints shrink as the value does: step down to the exact fit.
        while (batchSize(key.length, valueSize) > batchSize) {
            valueSize--;
        }
        if (batchSize(key.length, valueSize) != batchSize) {
            throw new IllegalArgumentException("no value makes a batch of exactly " + batchSize + " bytes");
        }
        byte[] value = new byte[valueSize];
        new Random(n).nextBytes(value);
        return new Data(timestamp(n), key, value, List.of(), false);
    }

    /** The record to send to a partition. */
    static ProducerRecord<byte[], byte[]> toSend(String topic, int partition, Data record) {
        List<Header> headers = record.headers().stream()
                .<Header>map(h -> new RecordHeader(h.key(), h.value()))
                .toList();
        return new ProducerRecord<>(topic, partition, record.timestamp(), record.key(), record.value(), headers);
    }

    private static int batchSize(int keySize, int valueSize) {
        return DefaultRecordBatch.RECORD_BATCH_OVERHEAD
                + DefaultRecord.sizeInBytes(0, 0L, keySize, valueSize, new Header[0]);
    }

    private long timestamp(int n) {
        return baseTimestamp + n * 5L - (n % 11 == 0 ? 300 : 0);
    }

    private static byte[] key(int n) {
        if (n % 13 == 0) {
            return null;
        }
        return n % 37 == 0 ? new byte[0] : ("key-" + n).getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Null (a tombstone) every 29th, empty every 31st; otherwise repeated text every third, random bytes else (a
     * period that round-robin over two partitions does not split into a compressible and an incompressible one).
     */
    private static byte[] value(int n) {
        if (n % 29 == 0) {
            return null;
        }
        if (n % 31 == 0) {
            return new byte[0];
        }
        byte[] value = new byte[(n * 7919) % MAX_VALUE_SIZE + 1];
        if (n % 3 != 0) {
            new Random(n).nextBytes(value);
        } else {
            byte[] text = ("record " + n + " of the Krabka log workload; ").getBytes(StandardCharsets.UTF_8);
            for (int i = 0; i < value.length; i++) {
                value[i] = text[i % text.length];
            }
        }
        return value;
    }

    private static List<HeaderEntry> headers(int n, boolean transactional) {
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
        if (n % 19 == 0) {
            byte[] value = new byte[n % 300];
            Arrays.fill(value, (byte) n);
            headers.add(new HeaderEntry("", value));
        }
        return headers;
    }
}
