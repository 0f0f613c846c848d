package io.krabka.kernel.metadata;

import io.krabka.kernel.record.LogBatch;
import io.krabka.kernel.record.MemoryRecords;
import io.krabka.kernel.record.Record;
import io.krabka.kernel.record.RecordBatch;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The metadata records of one batch of the metadata log (or of a KRaft snapshot): each record's value is a framed
 * metadata record ({@link MetadataRecordSerde}). Control batches (snapshot header and footer, leader changes, KRaft
 * versions and voters) carry no metadata records and are not batches of this kind.
 *
 * @param baseOffset the offset of the first record
 * @param lastOffset the offset of the last record
 * @param records    the records, in offset order
 */
public record MetadataBatch(long baseOffset, long lastOffset, List<MetadataRecordAndVersion> records) {

    /** Copies the records. */
    public MetadataBatch {
        records = List.copyOf(records);
    }

    /**
     * The data batches in {@code buffer} (from its position to its limit, not moved), skipping control batches; a
     * truncated trailing batch is left out, as Kafka leaves it.
     *
     * @param source what the bytes came from, for error messages
     * @throws MetadataParseException             if a record is not a metadata record Krabka reads
     * @throws io.krabka.kernel.record.CorruptRecordException if a batch is corrupt
     */
    public static List<MetadataBatch> readAll(ByteBuffer buffer, String source) {
        Objects.requireNonNull(source, "source");
        List<MetadataBatch> batches = new ArrayList<>();
        for (LogBatch batch : MemoryRecords.readableRecords(buffer, source, 0)) {
            if (!(batch instanceof RecordBatch recordBatch)) {
                throw new MetadataParseException(
                        source + " holds a batch of magic " + batch.magic() + "; the metadata log has only magic 2");
            }
            recordBatch.ensureValid();
            if (recordBatch.isControlBatch()) {
                continue;
            }
            List<MetadataRecordAndVersion> records = new ArrayList<>();
            for (Record record : recordBatch.records(Integer.MAX_VALUE)) {
                if (record.value() == null) {
                    throw new MetadataParseException(
                            source + ": the record at offset " + record.offset() + " has no value");
                }
                records.add(MetadataRecordSerde.read(record.value()));
            }
            batches.add(new MetadataBatch(recordBatch.baseOffset(), recordBatch.lastOffset(), records));
        }
        return batches;
    }
}
