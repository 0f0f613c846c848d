package io.krabka.kernel.broker;

import static io.krabka.kernel.broker.DataRequests.call;
import static io.krabka.kernel.broker.DataRequests.produce;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.krabka.kernel.network.KafkaWire;
import io.krabka.spi.common.TopicPartition;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.zip.CRC32C;
import org.apache.kafka.common.compress.Compression;
import org.apache.kafka.common.message.ProduceResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.record.internal.MemoryRecords;
import org.apache.kafka.common.record.internal.SimpleRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Malformed batches (reliability goal G10, kinds 9 to 14) are refused with Kafka's error for each, the connection
 * stays usable, and the log does not move.
 */
class ProduceValidationIT {

    // Offsets in a magic 2 batch header.
    private static final int LENGTH = 8;
    private static final int MAGIC = 16;
    private static final int CRC = 17;
    private static final int ATTRIBUTES = 21;
    private static final int LAST_OFFSET_DELTA = 23;
    private static final int BASE_SEQUENCE = 53;

    @RegisterExtension
    final DataPlane plane = DataPlane.perTest("orders", 1, Map.of("message.timestamp.after.max.ms", "60000"));

    private static ByteBuffer batch(long producerId, SimpleRecord... records) {
        MemoryRecords built = producerId < 0
                ? MemoryRecords.withRecords(Compression.NONE, records)
                : MemoryRecords.withIdempotentRecords(Compression.NONE, producerId, (short) 0, 0, records);
        return ByteBuffer.allocate(built.sizeInBytes())
                .put(built.buffer().duplicate())
                .flip();
    }

    private static ByteBuffer twoRecords() {
        long now = System.currentTimeMillis();
        return batch(
                -1,
                new SimpleRecord(now, "k".getBytes(), "a".getBytes()),
                new SimpleRecord(now, "k".getBytes(), "b".getBytes()));
    }

    /** Changes the batch, then sets a valid CRC, so only the change is wrong. */
    private static ByteBuffer withCrc(ByteBuffer batch, Consumer<ByteBuffer> change) {
        change.accept(batch);
        CRC32C crc = new CRC32C();
        crc.update(batch.duplicate().position(ATTRIBUTES));
        batch.putInt(CRC, (int) crc.getValue());
        return batch;
    }

    private ProduceResponseData.PartitionProduceResponse send(KafkaWire wire, ByteBuffer batch) throws Exception {
        return call(wire, (short) 12, produce((short) -1, "orders", 0, MemoryRecords.readableRecords(batch)))
                .data()
                .responses()
                .iterator()
                .next()
                .partitionResponses()
                .get(0);
    }

    private void assertRefused(KafkaWire wire, Errors expected, ByteBuffer batch, String kind) throws Exception {
        assertEquals(expected.code(), send(wire, batch).errorCode(), kind);
        assertEquals(
                0,
                plane.replicaManager
                        .partition(new TopicPartition("orders", 0))
                        .orElseThrow()
                        .log()
                        .logEndOffset(),
                kind + ": nothing appended");
    }

    @Test
    void eachMalformedBatchGetsKafkasError() throws Exception {
        try (KafkaWire wire = plane.connect()) {
            ByteBuffer flipped = twoRecords();
            flipped.put(flipped.limit() - 2, (byte) (flipped.get(flipped.limit() - 2) ^ 0x10));
            assertRefused(wire, Errors.CORRUPT_MESSAGE, flipped, "CRC mismatch");

            ByteBuffer magic = twoRecords();
            magic.put(MAGIC, (byte) 1);
            assertRefused(wire, Errors.INVALID_RECORD, magic, "magic 1");

            ByteBuffer undersized = twoRecords();
            undersized.putInt(LENGTH, 10);
            assertRefused(wire, Errors.CORRUPT_MESSAGE, undersized, "size below the overhead");

            ByteBuffer oversized = twoRecords();
            oversized.putInt(LENGTH, oversized.getInt(LENGTH) + 100);
            assertRefused(wire, Errors.INVALID_RECORD, oversized, "size past the bytes sent: no whole batch");

            assertRefused(
                    wire,
                    Errors.INVALID_RECORD,
                    withCrc(twoRecords(), b -> b.putInt(LAST_OFFSET_DELTA, 5)),
                    "last offset delta and count disagree");
            assertRefused(
                    wire,
                    Errors.INVALID_RECORD,
                    withCrc(twoRecords(), b -> b.putShort(ATTRIBUTES, (short) (b.getShort(ATTRIBUTES) | 0x20))),
                    "a control batch from a client");
            assertRefused(
                    wire,
                    Errors.INVALID_RECORD,
                    withCrc(batch(31, new SimpleRecord("v".getBytes())), b -> b.putInt(BASE_SEQUENCE, -1)),
                    "a producer id without a sequence");

            long now = System.currentTimeMillis();
            ProduceResponseData.PartitionProduceResponse future = send(
                    wire,
                    batch(
                            -1,
                            new SimpleRecord(now, null, "ok".getBytes()),
                            new SimpleRecord(now + 3_600_000, null, "late".getBytes())));
            assertEquals(Errors.INVALID_TIMESTAMP.code(), future.errorCode());
            assertEquals(
                    List.of(1),
                    future.recordErrors().stream()
                            .map(ProduceResponseData.BatchIndexAndErrorMessage::batchIndex)
                            .toList());
            assertEquals(
                    0,
                    plane.replicaManager
                            .partition(new TopicPartition("orders", 0))
                            .orElseThrow()
                            .log()
                            .logEndOffset());

            assertEquals(Errors.NONE.code(), send(wire, twoRecords()).errorCode(), "the connection still serves");
        }
    }
}
