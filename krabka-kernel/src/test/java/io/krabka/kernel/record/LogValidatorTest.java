package io.krabka.kernel.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.record.internal.MutableRecordBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Each produce rule of Kafka 4.4, in its order, with its exception. */
class LogValidatorTest {

    private static final String TP = "orders-3";
    private static final long NOW = 1_700_000_100_000L;
    private static final long NEXT_OFFSET = 5_000;
    private static final int EPOCH = 7;

    private static LogValidator.Config config(TimestampType type, Optional<Compression> target) {
        return new LogValidator.Config(1_048_588, type, Long.MAX_VALUE, 3_600_000, target, false, 64L << 20);
    }

    private static final LogValidator.Config CREATE_TIME = config(TimestampType.CREATE_TIME, Optional.empty());

    private static RecordBatchBuilder produced(Compression compression) {
        return new RecordBatchBuilder(compression, TimestampType.CREATE_TIME, 0)
                .append(NOW - 30, "k0".getBytes(), "v0".getBytes())
                .append(NOW - 10, "k1".getBytes(), "v1".getBytes())
                .append(NOW - 20, null, "v2".getBytes());
    }

    private static LogValidator.ValidationResult validate(ByteBuffer records, LogValidator.Config config) {
        return LogValidator.validateMessagesAndAssignOffsets(records, TP, config, NOW, NEXT_OFFSET, EPOCH);
    }

    @ParameterizedTest
    @EnumSource(CompressionType.class)
    void offsetsEpochAndMaxTimestampAreSetInPlace(CompressionType codec) {
        ByteBuffer request =
                produced(Compression.of(codec)).producer(42, (short) 1, 0).build();
        long crc = RecordBatch.at(request, 0, "t", 0).checksum();

        LogValidator.ValidationResult result = validate(request, CREATE_TIME);

        assertFalse(result.messageSizeMaybeChanged());
        assertEquals(codec, result.sourceCompression());
        assertEquals(NEXT_OFFSET, result.firstOffset());
        assertEquals(NEXT_OFFSET + 2, result.lastOffset());
        assertEquals(NOW - 10, result.maxTimestamp());
        assertEquals(3, result.recordCount());
        RecordBatch batch = result.batch();
        assertEquals(NEXT_OFFSET, batch.baseOffset());
        assertEquals(EPOCH, batch.partitionLeaderEpoch());
        assertEquals(crc, batch.checksum(), "base offset, epoch and an unchanged max timestamp leave the CRC alone");
        assertEquals(0, request.getLong(0) - NEXT_OFFSET, "the request's own bytes were changed");
        MutableRecordBatch kafka = Kafka.batches(result.validatedRecords()).getFirst();
        assertEquals(NEXT_OFFSET + 2, kafka.lastOffset());
        assertEquals(
                List.of(NEXT_OFFSET, NEXT_OFFSET + 1, NEXT_OFFSET + 2),
                Kafka.records(kafka).stream().map(Record::offset).toList());
    }

    @Test
    void aWrongMaxTimestampFromTheProducerIsCorrectedWithANewCrc() {
        ByteBuffer request = produced(Compression.NONE).build();
        RecordBatch.at(request, 0, "t", 0).setMaxTimestamp(TimestampType.CREATE_TIME, NOW - 1_000);
        LogValidator.ValidationResult result = validate(request, CREATE_TIME);
        assertEquals(NOW - 10, result.batch().maxTimestamp());
        result.batch().ensureValid();
    }

    @ParameterizedTest
    @EnumSource(CompressionType.class)
    void logAppendTimeTopicsStampNow(CompressionType codec) {
        ByteBuffer request = produced(Compression.of(codec)).build();
        LogValidator.ValidationResult result =
                validate(request, config(TimestampType.LOG_APPEND_TIME, Optional.empty()));
        assertEquals(NOW, result.maxTimestamp());
        assertEquals(NOW, result.logAppendTimeMs());
        RecordBatch batch = result.batch();
        batch.ensureValid();
        assertEquals(TimestampType.LOG_APPEND_TIME, batch.timestampType());
        assertEquals(NOW, batch.maxTimestamp());
        assertTrue(Kafka.records(Kafka.batches(result.validatedRecords()).getFirst()).stream()
                .allMatch(r -> r.timestamp() == NOW));
    }

    @ParameterizedTest
    @EnumSource(CompressionType.class)
    void aDifferentTopicCodecRecompresses(CompressionType target) {
        CompressionType source = target == CompressionType.GZIP ? CompressionType.ZSTD : CompressionType.GZIP;
        ByteBuffer request = produced(Compression.of(source))
                .producer(42, (short) 1, 17)
                .transactional(true)
                .build();
        List<Record> sent = RecordBatch.at(request, 0, "t", 0).records(1 << 20);

        LogValidator.ValidationResult result =
                validate(request, config(TimestampType.CREATE_TIME, Optional.of(Compression.of(target))));

        assertTrue(result.messageSizeMaybeChanged());
        assertEquals(source, result.sourceCompression());
        MutableRecordBatch kafka = Kafka.batches(result.validatedRecords()).getFirst();
        assertEquals(target.id(), kafka.compressionType().id);
        assertEquals(NEXT_OFFSET, kafka.baseOffset());
        assertEquals(EPOCH, kafka.partitionLeaderEpoch());
        assertEquals(42, kafka.producerId());
        assertEquals(17, kafka.baseSequence());
        assertTrue(kafka.isTransactional());
        assertEquals(NOW - 10, kafka.maxTimestamp());
        List<Record> stored = Kafka.records(kafka);
        for (int i = 0; i < sent.size(); i++) {
            assertEquals(NEXT_OFFSET + i, stored.get(i).offset());
            assertEquals(sent.get(i).timestamp(), stored.get(i).timestamp());
            assertEquals(sent.get(i).key(), stored.get(i).key());
            assertEquals(sent.get(i).value(), stored.get(i).value());
        }
    }

    @Test
    void theSameCodecAtAnotherLevelStaysInPlace() {
        ByteBuffer request = produced(Compression.of(CompressionType.GZIP)).build();
        LogValidator.ValidationResult result = validate(
                request, config(TimestampType.CREATE_TIME, Optional.of(new Compression(CompressionType.GZIP, 9))));
        assertFalse(result.messageSizeMaybeChanged());
    }

    @Test
    void noBatchOrATruncatedOneIsInvalid() {
        assertEquals(
                "Produce request to orders-3 has no complete record batch",
                assertThrows(InvalidRecordException.class, () -> validate(ByteBuffer.allocate(0), CREATE_TIME))
                        .getMessage());
        ByteBuffer cut = produced(Compression.NONE).build();
        cut.limit(cut.limit() - 1);
        assertThrows(InvalidRecordException.class, () -> validate(cut, CREATE_TIME));
    }

    @Test
    void aPartialTrailingBatchIsTrimmed() {
        ByteBuffer batch = produced(Compression.NONE).build();
        ByteBuffer request = ByteBuffer.allocate(batch.limit() + 20)
                .put(batch)
                .put(new byte[] {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 100})
                .flip()
                .limit(batch.limit() + 12);
        assertEquals(
                batch.limit(), validate(request, CREATE_TIME).validatedRecords().remaining());
    }

    @Test
    void twoBatchesAreInvalid() {
        ByteBuffer one = produced(Compression.NONE).build();
        ByteBuffer two = ByteBuffer.allocate(2 * one.limit())
                .put(one.duplicate())
                .put(one.duplicate())
                .flip();
        assertEquals(
                "Produce request to orders-3 has more than one record batch",
                assertThrows(InvalidRecordException.class, () -> validate(two, CREATE_TIME))
                        .getMessage());
    }

    @Test
    void legacyMagicIsInvalid() {
        ByteBuffer legacy = LegacyFixtures.entry(0, LegacyFixtures.message((byte) 1, 0, NOW, "k", "v"));
        assertThrows(InvalidRecordException.class, () -> validate(legacy, CREATE_TIME));
    }

    @Test
    void aNonZeroBaseOffsetIsInvalid() {
        ByteBuffer request = produced(Compression.NONE).build().putLong(0, 3);
        assertEquals(
                "The baseOffset of the record batch in the append to orders-3 should be 0, but it is 3",
                assertThrows(InvalidRecordException.class, () -> validate(request, CREATE_TIME))
                        .getMessage());
    }

    @Test
    void aBatchAboveMaxMessageBytesIsTooLarge() {
        ByteBuffer request = produced(Compression.NONE).build();
        LogValidator.Config small = new LogValidator.Config(
                request.limit() - 1,
                TimestampType.CREATE_TIME,
                Long.MAX_VALUE,
                Long.MAX_VALUE,
                Optional.empty(),
                false,
                1 << 20);
        assertEquals(
                "The record batch size in the append to orders-3 is " + request.limit()
                        + " bytes which exceeds the maximum configured value of " + (request.limit() - 1) + ".",
                assertThrows(RecordTooLargeException.class, () -> validate(request, small))
                        .getMessage());
    }

    @Test
    void aCrcMismatchIsCorrupt() {
        ByteBuffer request = produced(Compression.NONE).build();
        request.put(request.limit() - 1, (byte) 1);
        assertThrows(CorruptRecordException.class, () -> validate(request, CREATE_TIME));
    }

    @Test
    void badOffsetRangesAndCountsAreInvalid() {
        ByteBuffer negativeRange =
                RawBatches.fixCrc(produced(Compression.NONE).build().putInt(23, -1));
        assertEquals(
                "Batch has an invalid offset range: [0, -1] in topic partition orders-3",
                assertThrows(InvalidRecordException.class, () -> validate(negativeRange, CREATE_TIME))
                        .getMessage());
        ByteBuffer zeroCount =
                RawBatches.fixCrc(produced(Compression.NONE).build().putInt(57, 0));
        assertEquals(
                "Invalid reported count for record batch: 0 in topic partition orders-3",
                assertThrows(InvalidRecordException.class, () -> validate(zeroCount, CREATE_TIME))
                        .getMessage());
        ByteBuffer mismatch =
                RawBatches.fixCrc(produced(Compression.NONE).build().putInt(57, 2));
        assertEquals(
                "Inconsistent batch offset range [0, 2] and count of records 2 in topic partition orders-3",
                assertThrows(InvalidRecordException.class, () -> validate(mismatch, CREATE_TIME))
                        .getMessage());
    }

    @Test
    void clientsMayNotWriteControlBatches() {
        ByteBuffer marker = new RecordBatchBuilder(Compression.NONE, TimestampType.CREATE_TIME, 0)
                .producer(42, (short) 1, -1)
                .appendEndTxnMarker(NOW, new EndTransactionMarker(ControlRecordType.COMMIT, 3))
                .build();
        assertEquals(
                "Clients are not allowed to write control records in topic partition orders-3",
                assertThrows(InvalidRecordException.class, () -> validate(marker, CREATE_TIME))
                        .getMessage());
    }

    @ParameterizedTest
    @EnumSource(CompressionType.class)
    void aCoordinatorWritesMarkersAtAnyBaseOffsetUncompressedWhateverTheTopicCodec(CompressionType topicCodec) {
        ByteBuffer marker = new RecordBatchBuilder(Compression.NONE, TimestampType.CREATE_TIME, 17)
                .producer(42, (short) 1, -1)
                .appendEndTxnMarker(NOW, new EndTransactionMarker(ControlRecordType.ABORT, 3))
                .build();
        LogValidator.ValidationResult result = LogValidator.validateMessagesAndAssignOffsets(
                marker,
                TP,
                config(TimestampType.CREATE_TIME, Optional.of(Compression.of(topicCodec))),
                NOW,
                NEXT_OFFSET,
                EPOCH,
                false);
        RecordBatch batch = result.batch();
        assertFalse(result.messageSizeMaybeChanged());
        assertTrue(batch.isControlBatch());
        assertEquals(CompressionType.NONE, batch.compressionType());
        assertEquals(NEXT_OFFSET, batch.baseOffset());
        assertEquals(EPOCH, batch.partitionLeaderEpoch());
        MutableRecordBatch kafka = Kafka.batches(result.validatedRecords()).getFirst();
        assertTrue(kafka.isControlBatch());
        kafka.ensureValid();
    }

    @Test
    void aCompressedControlBatchRebuiltForTheTopicCodecStaysAControlBatch() {
        ByteBuffer marker = new RecordBatchBuilder(Compression.of(CompressionType.GZIP), TimestampType.CREATE_TIME, 0)
                .producer(42, (short) 1, -1)
                .control(true)
                .appendEndTxnMarker(NOW, new EndTransactionMarker(ControlRecordType.COMMIT, 3))
                .build();
        LogValidator.ValidationResult result = LogValidator.validateMessagesAndAssignOffsets(
                marker,
                TP,
                config(TimestampType.CREATE_TIME, Optional.of(Compression.of(CompressionType.ZSTD))),
                NOW,
                NEXT_OFFSET,
                EPOCH,
                false);
        assertTrue(result.messageSizeMaybeChanged());
        assertTrue(result.batch().isControlBatch());
        assertEquals(CompressionType.ZSTD, result.batch().compressionType());
        assertTrue(Kafka.batches(result.validatedRecords()).getFirst().isControlBatch());
    }

    @Test
    void aProducerIdNeedsABaseSequence() {
        ByteBuffer request =
                produced(Compression.NONE).producer(42, (short) 1, -1).build();
        assertEquals(
                "Invalid sequence number -1 in record batch with producerId 42 in topic partition orders-3",
                assertThrows(InvalidRecordException.class, () -> validate(request, CREATE_TIME))
                        .getMessage());
    }

    @ParameterizedTest
    @EnumSource(CompressionType.class)
    void timestampsOutOfBoundsAreCollectedWithTheirIndexes(CompressionType codec) {
        ByteBuffer request = new RecordBatchBuilder(Compression.of(codec), TimestampType.CREATE_TIME, 0)
                .append(NOW - 2_000, "a".getBytes(), null)
                .append(NOW, "b".getBytes(), null)
                .append(NOW + 1_001, "c".getBytes(), null)
                .append(RecordBatch.NO_TIMESTAMP, "d".getBytes(), null)
                .build();
        LogValidator.Config bounded = new LogValidator.Config(
                1 << 20, TimestampType.CREATE_TIME, 1_000, 1_000, Optional.empty(), false, 1 << 20);

        RecordValidationException e = assertThrows(RecordValidationException.class, () -> validate(request, bounded));

        assertInstanceOf(InvalidTimestampException.class, e.invalidException());
        assertEquals("One or more records have been rejected due to invalid timestamp", e.getMessage());
        assertEquals(
                List.of(
                        new RecordError(
                                0,
                                "Timestamp " + (NOW - 2_000)
                                        + " of message with offset 0 is out of range. The timestamp"
                                        + " should be within [" + (NOW - 1_000) + ", " + (NOW + 1_000) + "]"),
                        new RecordError(
                                2,
                                "Timestamp " + (NOW + 1_001)
                                        + " of message with offset 2 is out of range. The timestamp"
                                        + " should be within [" + (NOW - 1_000) + ", " + (NOW + 1_000) + "]")),
                e.recordErrors());
    }

    @Test
    void aProducerMayNotSetLogAppendTime() {
        ByteBuffer request = new RecordBatchBuilder(Compression.NONE, TimestampType.LOG_APPEND_TIME, 0)
                .logAppendTime(NOW)
                .append(NOW, "a".getBytes(), null)
                .build();
        RecordValidationException e = assertThrows(
                RecordValidationException.class,
                () -> validate(request, config(TimestampType.LOG_APPEND_TIME, Optional.empty())));
        assertInstanceOf(InvalidTimestampException.class, e.invalidException());
        assertEquals(
                List.of(
                        new RecordError(
                                0,
                                "Invalid timestamp type in message with offset 0. Producer should not set timestamp type to LogAppendTime.")),
                e.recordErrors());
    }

    @Test
    void compactedTopicsNeedKeys() {
        LogValidator.Config compacted = new LogValidator.Config(
                1 << 20, TimestampType.CREATE_TIME, Long.MAX_VALUE, Long.MAX_VALUE, Optional.empty(), true, 1 << 20);
        RecordValidationException e = assertThrows(
                RecordValidationException.class,
                () -> validate(produced(Compression.NONE).build(), compacted));
        InvalidRecordException invalid = assertInstanceOf(InvalidRecordException.class, e.invalidException());
        assertEquals(
                List.of(new RecordError(
                        2, "Compacted topic cannot accept message without key in topic partition orders-3")),
                e.recordErrors());
        assertTrue(invalid.getMessage()
                .startsWith("One or more records have been rejected due to 1 record errors in total"));
        assertSame(invalid, e.getCause());
    }

    @Test
    void framingFaultsInsideTheBatchFailAtOnce() {
        byte[] two = RawBatches.concat(
                RawBatches.RecordBytes.simple(0, "a", "1").framed(),
                RawBatches.RecordBytes.simple(0, "b", "2").framed());
        ByteBuffer request = RawBatches.batch(0, 1, 2, two).putLong(27, NOW).putLong(35, NOW);
        assertThrows(InvalidRecordException.class, () -> validate(RawBatches.fixCrc(request), CREATE_TIME));
    }

    @Test
    void aBombInAProduceRequestIsTooLarge() {
        ByteBuffer bomb = new RecordBatchBuilder(Compression.of(CompressionType.ZSTD), TimestampType.CREATE_TIME, 0)
                .append(NOW, null, new byte[4 << 20])
                .build();
        LogValidator.Config bounded = new LogValidator.Config(
                1 << 20, TimestampType.CREATE_TIME, Long.MAX_VALUE, Long.MAX_VALUE, Optional.empty(), false, 1 << 20);
        assertThrows(RecordTooLargeException.class, () -> validate(bomb, bounded));
    }
}
