package io.krabka.kernel.restore.metadata;

import io.krabka.kernel.metadata.MetadataParseException;
import io.krabka.kernel.record.ControlRecordType;
import io.krabka.kernel.record.LogBatch;
import io.krabka.kernel.record.MemoryRecords;
import io.krabka.kernel.record.Record;
import io.krabka.kernel.record.RecordBatch;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * The framing of a KRaft snapshot ({@code <offset>-<epoch>.checkpoint}), checked as Kafka's snapshot reader checks
 * it: magic 2 batches with valid checksums, laid end to end with nothing left over, the first a control batch
 * opening with a {@code SnapshotHeaderRecord}, the last a control batch holding the {@code SnapshotFooterRecord};
 * between them, data batches whose record values are framed metadata records.
 */
final class KraftSnapshotFile {
    // Kafka's controller writes batches of at most 8 MiB (KafkaRaftClient.MAX_BATCH_SIZE_BYTES); a compressed one
    // that inflates far past that is not a snapshot Kafka wrote.
    private static final long MAX_DECOMPRESSED_BATCH_BYTES = 64L * 1024 * 1024;

    private KraftSnapshotFile() {}

    /**
     * The values of the metadata records, in offset order; they share {@code content}'s bytes.
     *
     * @param source the file, for error messages
     * @throws MetadataParseException if the framing is not a whole snapshot's
     * @throws io.krabka.kernel.record.RecordException if a batch is corrupt
     */
    static List<ByteBuffer> metadataRecords(ByteBuffer content, String source) {
        MemoryRecords batches = MemoryRecords.readableRecords(content, source, 0);
        if (batches.validBytes() != batches.sizeInBytes()) {
            throw new MetadataParseException("cut short: a batch at byte " + batches.validBytes() + " is incomplete");
        }
        List<ByteBuffer> values = new ArrayList<>();
        ControlRecordType first = null;
        ControlRecordType last = null;
        for (LogBatch logBatch : batches) {
            if (!(logBatch instanceof RecordBatch batch)) {
                throw new MetadataParseException("a batch of magic " + logBatch.magic() + "; KRaft writes magic 2");
            }
            batch.ensureValid();
            if (last == ControlRecordType.SNAPSHOT_FOOTER) {
                throw new MetadataParseException("a batch after the snapshot footer");
            }
            List<Record> records = batch.records(MAX_DECOMPRESSED_BATCH_BYTES);
            if (records.isEmpty()) {
                throw new MetadataParseException("an empty batch at offset " + batch.baseOffset());
            }
            if (batch.isControlBatch()) {
                for (Record record : records) {
                    last = ControlRecordType.parse(record.key());
                    first = first == null ? last : first;
                }
            } else {
                if (first == null) {
                    throw new MetadataParseException("no snapshot header before the first metadata record");
                }
                for (Record record : records) {
                    if (record.value() == null) {
                        throw new MetadataParseException("the record at offset " + record.offset() + " has no value");
                    }
                    values.add(record.value());
                }
                last = null;
            }
        }
        if (first != ControlRecordType.SNAPSHOT_HEADER) {
            throw new MetadataParseException("it does not open with a snapshot header");
        }
        if (last != ControlRecordType.SNAPSHOT_FOOTER) {
            throw new MetadataParseException("it does not end with a snapshot footer");
        }
        return values;
    }
}
