package io.krabka.bench;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.SplittableRandom;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.MemoryRecordsBuilder;
import org.apache.kafka.common.record.internal.Record;
import org.apache.kafka.common.record.internal.RecordBatch;

/**
 * A record batch as a producer sends it, built by Kafka's own client-side builder: {@value #RECORD_BYTES}-byte
 * values without keys, as many as fit in the producer's {@code batch.size} uncompressed (so every codec carries
 * the same records), then compressed with the codec. The values are text-like (words of a fixed vocabulary), so
 * the codecs have something to do.
 *
 * @param bytes   the batch, base offset 0 and no leader epoch, as it arrives in a produce request
 * @param records the number of records in it
 */
record ProducedBatch(byte[] bytes, int records) {
    static final int RECORD_BYTES = 1024;
    /** Kafka's {@code DefaultRecordBatch.PARTITION_LEADER_EPOCH_OFFSET}: the leader stamps it, outside the CRC. */
    private static final int PARTITION_LEADER_EPOCH_OFFSET = 12;

    private static final String[] WORDS = words(new SplittableRandom(405), 512);

    /** Checks the parts. */
    ProducedBatch {
        Objects.requireNonNull(bytes, "bytes");
        if (records < 1) {
            throw new IllegalArgumentException("a batch needs records: " + records);
        }
    }

    /**
     * A batch of at most {@code batchBytes} uncompressed, compressed with {@code compression} ({@code none},
     * {@code lz4}, {@code zstd}, ... as Kafka names them), from a producer that is not idempotent.
     */
    static ProducedBatch of(int batchBytes, String compression, long timestamp) {
        return of(
                values(batchBytes, timestamp),
                compression,
                timestamp,
                RecordBatch.NO_PRODUCER_ID,
                RecordBatch.NO_SEQUENCE);
    }

    /**
     * A batch of records with these values, compressed with {@code compression}.
     *
     * @param producerId   the producer's id, or -1 for a producer that is not idempotent
     * @param baseSequence the sequence of the first record (-1 without a producer id)
     */
    static ProducedBatch of(byte[][] values, String compression, long timestamp, long producerId, int baseSequence) {
        // The builder's buffer grows as the records need.
        MemoryRecordsBuilder builder = builder(
                ByteBuffer.allocate(RECORD_BYTES), Compression.of(compression).build(), producerId, baseSequence);
        for (byte[] value : values) {
            builder.append(timestamp, null, value);
        }
        MemoryRecords built = builder.build();
        byte[] bytes = new byte[built.sizeInBytes()];
        built.buffer().duplicate().get(bytes);
        return new ProducedBatch(bytes, values.length);
    }

    /** The values of the records that fit in {@code batchBytes} uncompressed, by the builder's own measure. */
    static byte[][] values(int batchBytes, long timestamp) {
        SplittableRandom random = new SplittableRandom(batchBytes);
        MemoryRecordsBuilder sizer = new MemoryRecordsBuilder(
                ByteBuffer.allocate(batchBytes),
                RecordBatch.CURRENT_MAGIC_VALUE,
                Compression.NONE,
                TimestampType.CREATE_TIME,
                0,
                RecordBatch.NO_TIMESTAMP,
                RecordBatch.NO_PRODUCER_ID,
                RecordBatch.NO_PRODUCER_EPOCH,
                RecordBatch.NO_SEQUENCE,
                false,
                false,
                RecordBatch.NO_PARTITION_LEADER_EPOCH,
                batchBytes);
        List<byte[]> values = new ArrayList<>();
        for (byte[] value = value(random);
                sizer.hasRoomFor(timestamp, null, value, Record.EMPTY_HEADERS);
                value = value(random)) {
            sizer.append(timestamp, null, value);
            values.add(value);
        }
        return values.toArray(byte[][]::new);
    }

    private static MemoryRecordsBuilder builder(
            ByteBuffer buffer, Compression compression, long producerId, int baseSequence) {
        short epoch = producerId < 0 ? RecordBatch.NO_PRODUCER_EPOCH : 0;
        return MemoryRecords.builder(
                buffer,
                RecordBatch.CURRENT_MAGIC_VALUE,
                compression,
                TimestampType.CREATE_TIME,
                0,
                RecordBatch.NO_TIMESTAMP,
                producerId,
                epoch,
                baseSequence,
                false,
                RecordBatch.NO_PARTITION_LEADER_EPOCH);
    }

    private static byte[] value(SplittableRandom random) {
        StringBuilder text = new StringBuilder(RECORD_BYTES + 16);
        while (text.length() < RECORD_BYTES) {
            text.append(WORDS[random.nextInt(WORDS.length)]).append(' ');
        }
        text.setLength(RECORD_BYTES);
        return text.toString().getBytes(StandardCharsets.US_ASCII);
    }

    private static String[] words(SplittableRandom random, int count) {
        String[] words = new String[count];
        for (int n = 0; n < count; n++) {
            char[] letters = new char[3 + random.nextInt(8)];
            for (int i = 0; i < letters.length; i++) {
                letters[i] = (char) ('a' + random.nextInt(26));
            }
            words[n] = new String(letters);
        }
        return words;
    }

    /** The batch's size in bytes. */
    int size() {
        return bytes.length;
    }

    /** A new buffer holding the batch. */
    ByteBuffer copy() {
        return ByteBuffer.wrap(bytes.clone());
    }

    /**
     * Makes a batch that a leader appended the one a producer sent again: the leader changes only the base offset
     * and the partition leader epoch in place (outside the CRC; the max timestamp stays, being right), so those
     * two are set back.
     */
    static void reset(ByteBuffer batch) {
        batch.putLong(0, 0L);
        batch.putInt(PARTITION_LEADER_EPOCH_OFFSET, RecordBatch.NO_PARTITION_LEADER_EPOCH);
    }
}
