package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.it.LoggedBatch.LoggedRecord;
import io.krabka.spi.common.TopicPartition;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.record.TimestampType;
import org.apache.kafka.common.record.internal.CompressionType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * Kafka's own files, decoded with kafka-clients 4.4's record classes, hold exactly the records kafka-clients was
 * told they hold: every partition record for record, each compression type as produced, the broker's timestamps
 * under LogAppendTime, batches of exactly max.message.bytes, and after a kill every acknowledged record at its
 * offset. What the log engine reads from these files must equal the same {@link ProducedLog}.
 */
@ExtendWith(KafkaLogs.class)
class KafkaLogRecordsIT {

    @Test
    void everyPartitionDecodesToExactlyTheAcknowledgedLog(KafkaLog log) throws IOException {
        for (Map.Entry<TopicPartition, ProducedLog> produced : log.produced().entrySet()) {
            assertEquals(
                    produced.getValue().entries(),
                    entries(log, produced.getKey()),
                    () -> produced.getKey() + " in " + log.logDir());
        }
    }

    @ParameterizedTest
    @EnumSource(CompressionType.class)
    void eachCompressionTypeIsWrittenAsProducedAndDecodesToTheProducedRecords(CompressionType type, KafkaLog log)
            throws IOException {
        for (TopicPartition partition : KafkaLogWorkload.partitions(KafkaLogWorkload.compressedTopic(type))) {
            List<LoggedBatch> batches =
                    DecodedPartition.decode(log.partition(partition)).batches();
            assertTrue(
                    batches.stream().allMatch(b -> b.compression() == type),
                    () -> partition + " holds batches not " + type);
            assertEquals(log.produced().get(partition).entries(), entries(log, partition), partition::toString);
        }
    }

    @Test
    void logAppendTimeBatchesCarryTheTimeTheBrokerAcknowledged(KafkaLog log) throws IOException {
        TopicPartition partition = new TopicPartition(KafkaLogWorkload.LOG_APPEND_TIME, 0);
        List<LoggedBatch> batches =
                DecodedPartition.decode(log.partition(partition)).batches();
        assertTrue(
                batches.stream().allMatch(b -> b.timestampType() == TimestampType.LOG_APPEND_TIME),
                partition::toString);
        assertTrue(
                batches.stream().map(LoggedBatch::compression).distinct().count() == 2,
                "uncompressed and gzip batches");
        for (LoggedBatch batch : batches) {
            assertTrue(
                    batch.records().stream().allMatch(r -> r.timestamp() == batch.maxTimestamp()),
                    () -> partition + ": the batch at " + batch.position() + " has records of another time");
        }
        // The producer was acknowledged with the log append time, and that is what the log holds.
        assertEquals(log.produced().get(partition).entries(), entries(log, partition));
    }

    @Test
    void theBrokerRecompressesToTheTopicsCompressionTypeAndTheLargestBatchesAreExactlyTheLimit(KafkaLog log)
            throws IOException {
        TopicPartition recompressed = new TopicPartition(KafkaLogWorkload.RECOMPRESSED, 0);
        assertTrue(
                DecodedPartition.decode(log.partition(recompressed)).batches().stream()
                        .allMatch(b -> b.compression() == CompressionType.ZSTD),
                "the gzip batches were not recompressed to zstd");
        TopicPartition large = new TopicPartition(KafkaLogWorkload.LARGE, 0);
        int limit = KafkaLogWorkload.LARGE_MAX_MESSAGE_BYTES;
        assertEquals(
                List.of(limit, limit - 1, limit, 100_000, 60_000),
                DecodedPartition.decode(log.partition(large)).batches().stream()
                        .map(LoggedBatch::sizeInBytes)
                        .toList());
    }

    @Test
    void theKilledLogHoldsEveryAcknowledgedRecordAtItsOffset(@KafkaLogs.Killed KafkaLog log) throws IOException {
        for (Map.Entry<TopicPartition, ProducedLog> produced : log.produced().entrySet()) {
            List<LogEntry> expected = produced.getValue().entries();
            List<LogEntry> found = entries(log, produced.getKey());
            if (produced.getValue().complete()) {
                assertEquals(expected, found, produced.getKey()::toString);
            } else {
                assertTrue(
                        found.size() >= expected.size(),
                        () -> produced.getKey() + " lost acknowledged records: " + found.size() + " of "
                                + expected.size());
                assertEquals(expected, found.subList(0, expected.size()), produced.getKey()::toString);
            }
        }
    }

    /** The partition's entries in offset order, which must be contiguous from 0. */
    private static List<LogEntry> entries(KafkaLog log, TopicPartition partition) throws IOException {
        List<LoggedRecord> records =
                DecodedPartition.decode(log.partition(partition)).records();
        for (int offset = 0; offset < records.size(); offset++) {
            assertEquals(offset, records.get(offset).offset(), () -> partition + ": offsets are not contiguous from 0");
        }
        return records.stream().map(LoggedRecord::entry).toList();
    }
}
