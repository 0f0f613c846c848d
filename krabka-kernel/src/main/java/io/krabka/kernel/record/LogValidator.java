package io.krabka.kernel.record;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Validates the records of a produce request for one partition and assigns their offsets, in Kafka's order and
 * with Kafka's errors (ProduceRequest.validateRecords, UnifiedLog.analyzeAndValidateRecords, LogValidator): one
 * magic 2 batch; base offset 0; size within max.message.bytes; CRC; offset range, count and their agreement; no
 * control batches from clients; a producer id needs a base sequence; then per-record checks collected with their
 * indexes (key on compacted topics, timestamp bounds, LogAppendTime set by a producer); then offsets, partition
 * leader epoch and max timestamp set in place, or the records rebuilt when the topic's codec differs from the
 * batch's.
 *
 * <p>A pure function of its arguments: no I/O, no clock. Uncompressed batches are walked in place without
 * allocating per record. A trailing partial batch is dropped, as Kafka trims it.
 */
public final class LogValidator {

    private LogValidator() {}

    /**
     * The topic settings validation depends on.
     *
     * @param maxMessageBytes      max.message.bytes: the largest batch accepted
     * @param timestampType        message.timestamp.type
     * @param timestampBeforeMaxMs message.timestamp.before.max.ms
     * @param timestampAfterMaxMs  message.timestamp.after.max.ms
     * @param targetCompression    compression.type resolved to a codec and level; empty for {@code producer}
     * @param compactedTopic       whether cleanup.policy includes compact, so records need keys
     * @param maxDecompressedBytes the bound on the bytes a compressed batch may decompress to
     */
    public record Config(
            int maxMessageBytes,
            TimestampType timestampType,
            long timestampBeforeMaxMs,
            long timestampAfterMaxMs,
            Optional<Compression> targetCompression,
            boolean compactedTopic,
            long maxDecompressedBytes) {

        /** Checks the values. */
        public Config {
            if (maxMessageBytes < 0
                    || timestampBeforeMaxMs < 0
                    || timestampAfterMaxMs < 0
                    || maxDecompressedBytes < 0) {
                throw new IllegalArgumentException("negative limit in " + maxMessageBytes + ", " + timestampBeforeMaxMs
                        + ", " + timestampAfterMaxMs + ", " + maxDecompressedBytes);
            }
            if (timestampType != TimestampType.CREATE_TIME && timestampType != TimestampType.LOG_APPEND_TIME) {
                throw new IllegalArgumentException("message.timestamp.type must be CreateTime or LogAppendTime");
            }
            Objects.requireNonNull(targetCompression, "targetCompression");
        }
    }

    /**
     * The outcome of a validation.
     *
     * @param validatedRecords        the batch to append, offsets assigned: the request's own bytes when changed in
     *                                place, new bytes when rebuilt
     * @param logAppendTimeMs         the time used as LogAppendTime ({@code now})
     * @param firstOffset             the offset of the first record
     * @param lastOffset              the offset of the last record; in Kafka 4.4 also the shallow offset of the max
     *                                timestamp, which the time index records (the last offset of the batch holding it)
     * @param maxTimestamp            the largest record timestamp, {@code now} for LogAppendTime, -1 for none
     * @param recordCount             the number of records
     * @param sourceCompression       the codec the producer used
     * @param messageSizeMaybeChanged whether the records were rebuilt
     */
    public record ValidationResult(
            ByteBuffer validatedRecords,
            long logAppendTimeMs,
            long firstOffset,
            long lastOffset,
            long maxTimestamp,
            int recordCount,
            CompressionType sourceCompression,
            boolean messageSizeMaybeChanged) {

        /** A view of the validated batch. */
        public RecordBatch batch() {
            return new RecordBatch(validatedRecords.duplicate(), "validated records", 0);
        }
    }

    /**
     * Validates {@code records} and assigns offsets from {@code nextOffset}; the request's bytes are changed in
     * place unless the records are rebuilt.
     *
     * @param source               the partition, for error messages (Kafka's "topic partition")
     * @param now                  the broker's clock, for timestamp bounds and LogAppendTime
     * @param partitionLeaderEpoch the leader epoch to stamp on the batch
     * @throws InvalidRecordException              for a missing, extra or malformed batch, or a rule of the batch
     * @throws RecordTooLargeException             if the batch exceeds max.message.bytes or its decompressed bound
     * @throws CorruptRecordException              if the CRC does not match or the framing cannot be trusted
     * @throws UnsupportedCompressionTypeException if the attributes name no codec
     * @throws RecordValidationException           if records fail per-record checks, each listed with its index
     */
    public static ValidationResult validateMessagesAndAssignOffsets(
            ByteBuffer records, String source, Config config, long now, long nextOffset, int partitionLeaderEpoch) {
        return validateMessagesAndAssignOffsets(records, source, config, now, nextOffset, partitionLeaderEpoch, true);
    }

    /**
     * Validates {@code records} as {@link #validateMessagesAndAssignOffsets(ByteBuffer, String, Config, long, long,
     * int)} does, for an append from a producer or, with {@code fromClient} false, from a coordinator (Kafka's
     * {@code AppendOrigin.COORDINATOR}): then the base offset need not be 0 and the batch checks Kafka reserves for
     * clients (offset range and count, no control batches, a sequence with a producer id) are skipped, so the
     * transaction coordinator can write its markers. An uncompressed control batch is never recompressed.
     *
     * @param fromClient whether a producer sent the records
     */
    public static ValidationResult validateMessagesAndAssignOffsets(
            ByteBuffer records,
            String source,
            Config config,
            long now,
            long nextOffset,
            int partitionLeaderEpoch,
            boolean fromClient) {
        RecordBatch batch = singleBatch(records, source);
        analyze(batch, source, config, fromClient);
        CompressionType sourceCompression = batch.compressionType();
        if (fromClient) {
            validateBatch(batch, source);
        }
        Compression target = config.targetCompression().orElse(Compression.of(sourceCompression));
        // Kafka: "Do not compress control records unless they are written compressed".
        boolean inPlace = sourceCompression == target.type()
                || (sourceCompression == CompressionType.NONE && batch.isControlBatch());
        List<Record> rebuilt = inPlace ? null : new ArrayList<>(batch.recordsCount());
        long maxTimestamp = validateRecords(batch, source, config, now, rebuilt);
        int count = batch.recordsCount();
        long lastOffset = nextOffset + count - 1;
        if (config.timestampType() == TimestampType.LOG_APPEND_TIME) {
            maxTimestamp = now;
        }
        if (inPlace) {
            batch.setLastOffset(lastOffset);
            batch.setPartitionLeaderEpoch(partitionLeaderEpoch);
            batch.setMaxTimestamp(config.timestampType(), maxTimestamp);
            return new ValidationResult(
                    batch.buffer(), now, nextOffset, lastOffset, maxTimestamp, count, sourceCompression, false);
        }
        RecordBatchBuilder builder = new RecordBatchBuilder(target, config.timestampType(), nextOffset)
                .producer(batch.producerId(), batch.producerEpoch(), batch.baseSequence())
                .transactional(batch.isTransactional())
                .control(batch.isControlBatch())
                .partitionLeaderEpoch(partitionLeaderEpoch)
                .logAppendTime(now);
        long offset = nextOffset;
        for (Record record : rebuilt) {
            builder.appendWithOffset(offset++, record.timestamp(), record.key(), record.value(), record.headers());
        }
        return new ValidationResult(
                builder.build(), now, nextOffset, lastOffset, maxTimestamp, count, sourceCompression, true);
    }

    // ProduceRequest.validateRecords: exactly one batch, of magic 2; a partial tail is trimmed.
    private static RecordBatch singleBatch(ByteBuffer records, String source) {
        var batches = MemoryRecords.readableRecords(records, source, 0).iterator();
        if (!batches.hasNext()) {
            throw new InvalidRecordException("Produce request to " + source + " has no complete record batch");
        }
        LogBatch first = batches.next();
        if (batches.hasNext()) {
            throw new InvalidRecordException("Produce request to " + source + " has more than one record batch");
        }
        if (!(first instanceof RecordBatch batch)) {
            throw new InvalidRecordException("Produce requests with magic " + first.magic() + " are not supported: "
                    + source + " accepts magic 2 only");
        }
        return batch;
    }

    // UnifiedLog.analyzeAndValidateRecords; the base offset is checked for clients only.
    private static void analyze(RecordBatch batch, String source, Config config, boolean fromClient) {
        if (fromClient && batch.baseOffset() != 0) {
            throw new InvalidRecordException("The baseOffset of the record batch in the append to " + source
                    + " should be 0, but it is " + batch.baseOffset());
        }
        if (batch.sizeInBytes() > config.maxMessageBytes()) {
            throw new RecordTooLargeException("The record batch size in the append to " + source + " is "
                    + batch.sizeInBytes() + " bytes which exceeds the maximum configured value of "
                    + config.maxMessageBytes() + ".");
        }
        batch.ensureValid();
    }

    // LogValidator.validateBatch, for batches from clients.
    private static void validateBatch(RecordBatch batch, String source) {
        long countFromOffsets = batch.lastOffset() - batch.baseOffset() + 1;
        if (countFromOffsets <= 0) {
            throw new InvalidRecordException("Batch has an invalid offset range: [" + batch.baseOffset() + ", "
                    + batch.lastOffset() + "] in topic partition " + source);
        }
        long count = batch.recordsCount();
        if (count <= 0) {
            throw new InvalidRecordException(
                    "Invalid reported count for record batch: " + count + " in topic partition " + source);
        }
        if (countFromOffsets != count) {
            throw new InvalidRecordException("Inconsistent batch offset range [" + batch.baseOffset() + ", "
                    + batch.lastOffset() + "] and count of records " + count + " in topic partition " + source);
        }
        if (batch.isControlBatch()) {
            throw new InvalidRecordException(
                    "Clients are not allowed to write control records in topic partition " + source);
        }
        if (batch.hasProducerId() && batch.baseSequence() < 0) {
            throw new InvalidRecordException("Invalid sequence number " + batch.baseSequence()
                    + " in record batch with producerId " + batch.producerId() + " in topic partition " + source);
        }
    }

    // Walks every record; returns the max timestamp of the records; collects them when they will be rebuilt.
    private static long validateRecords(RecordBatch batch, String source, Config config, long now, List<Record> into) {
        List<RecordError> errors = null;
        boolean timestampError = false;
        long maxTimestamp = RecordBatch.NO_TIMESTAMP;
        try (RecordCursor cursor = batch.cursor(config.maxDecompressedBytes())) {
            for (int index = 0; cursor.next(); index++) {
                String error = null;
                if (config.compactedTopic() && !cursor.hasKey()) {
                    error = "Compacted topic cannot accept message without key in topic partition " + source;
                } else {
                    error = timestampError(batch, cursor, config, now);
                    timestampError |= error != null;
                }
                if (error != null) {
                    if (errors == null) {
                        errors = new ArrayList<>();
                    }
                    errors.add(new RecordError(index, error));
                } else if (into != null) {
                    into.add(cursor.record());
                }
                maxTimestamp = Math.max(maxTimestamp, cursor.timestamp());
            }
        }
        if (errors != null) {
            throw new RecordValidationException(
                    timestampError
                            ? new InvalidTimestampException(
                                    "One or more records have been rejected due to invalid timestamp")
                            : new InvalidRecordException(
                                    "One or more records have been rejected due to " + errors.size()
                                            + " record errors in total, and only showing the first three errors at most: "
                                            + errors.subList(0, Math.min(errors.size(), 3))),
                    errors);
        }
        return maxTimestamp;
    }

    private static String timestampError(RecordBatch batch, RecordCursor record, Config config, long now) {
        long timestamp = record.timestamp();
        if (config.timestampType() == TimestampType.CREATE_TIME && timestamp != RecordBatch.NO_TIMESTAMP) {
            long difference = now - timestamp;
            if (difference > config.timestampBeforeMaxMs() || -difference > config.timestampAfterMaxMs()) {
                return "Timestamp " + timestamp + " of message with offset " + record.offset()
                        + " is out of range. The timestamp should be within [" + (now - config.timestampBeforeMaxMs())
                        + ", " + (now + config.timestampAfterMaxMs()) + "]";
            }
        } else if (batch.timestampType() == TimestampType.LOG_APPEND_TIME) {
            return "Invalid timestamp type in message with offset " + record.offset()
                    + ". Producer should not set timestamp type to LogAppendTime.";
        }
        return null;
    }
}
