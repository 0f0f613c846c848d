package io.krabka.kernel.format;

import io.krabka.kernel.log.checkpoint.AtomicFileWriter;
import io.krabka.kernel.metadata.FeatureLevelRecord;
import io.krabka.kernel.metadata.MetadataRecord;
import io.krabka.kernel.metadata.MetadataRecordSerde;
import io.krabka.kernel.record.Compression;
import io.krabka.kernel.record.ControlRecordType;
import io.krabka.kernel.record.RecordBatchBuilder;
import io.krabka.kernel.record.TimestampType;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.message.KRaftVersionRecord;
import org.apache.kafka.common.message.SnapshotFooterRecord;
import org.apache.kafka.common.message.SnapshotHeaderRecord;
import org.apache.kafka.common.protocol.ApiMessage;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.ObjectSerializationCache;

/**
 * The KRaft snapshot with which Kafka 4.4's format tool bootstraps the cluster metadata (KIP-1170: it replaced
 * {@code bootstrap.checkpoint}): {@code __cluster_metadata-0/00000000000000000000-0000000000.checkpoint} in the
 * metadata log directory, snapshot id end offset 0 and epoch 0. Three magic 2 batches, uncompressed, CreateTime,
 * partition leader epoch 0, offsets counting up from 0 across them:
 * <ol>
 *   <li>a control batch: {@code SnapshotHeaderRecord}, then for {@code kraft.version} 1 a {@code KRaftVersionRecord}
 *       and, when there are initial controllers, a {@code VotersRecord};</li>
 *   <li>the feature records, then the SCRAM credentials and ACLs of {@code --add-scram} and {@code --add-acl}, each
 *       framed as the metadata log frames it;</li>
 *   <li>a control batch: {@code SnapshotFooterRecord}.</li>
 * </ol>
 * Kafka reads its clock for the header's last contained log timestamp and again for each batch's timestamp; this
 * reads it once for all of them.
 */
final class BootstrapSnapshot {
    /** The metadata log's partition directory. */
    static final String DIRECTORY = "__cluster_metadata-0";
    /** The snapshot's file name: end offset (20 digits) and epoch (10 digits). */
    static final String FILE_NAME = "00000000000000000000-0000000000.checkpoint";
    /** Where Kafka (and this) writes the snapshot before renaming it; Kafka's broker deletes leftovers at start. */
    static final String PARTIAL_SUFFIX = ".checkpoint.part";

    // The control records' versions Kafka 4.4 writes (its ControlRecordUtils).
    private static final short SNAPSHOT_HEADER_VERSION = 0;
    private static final short SNAPSHOT_FOOTER_VERSION = 0;
    private static final short KRAFT_VERSION_RECORD_VERSION = 0;
    private static final short VOTERS_RECORD_VERSION = 0;
    private static final short FEATURE_LEVEL_RECORD_VERSION = 0;
    private static final int EPOCH = 0;

    private BootstrapSnapshot() {}

    /**
     * The snapshot's bytes.
     *
     * @param timestamp    the time of formatting, in milliseconds since the epoch
     * @param voters       the initial controllers, empty for {@code --no-initial-controllers}
     * @param listenerName the controllers' listener name
     */
    static ByteBuffer encode(
            long timestamp,
            BootstrapFeatures features,
            List<MetadataRecord> records,
            Optional<DynamicVoters> voters,
            String listenerName) {
        RecordBatchBuilder header = batch(0).appendControlRecord(
                        timestamp,
                        ControlRecordType.SNAPSHOT_HEADER,
                        serialize(
                                new SnapshotHeaderRecord()
                                        .setVersion(SNAPSHOT_HEADER_VERSION)
                                        .setLastContainedLogTimestamp(timestamp),
                                SNAPSHOT_HEADER_VERSION));
        if (features.kraftVersion() >= BootstrapFeatures.KRAFT_VERSION_1) {
            header.appendControlRecord(
                    timestamp,
                    ControlRecordType.KRAFT_VERSION,
                    serialize(
                            new KRaftVersionRecord()
                                    .setVersion(KRAFT_VERSION_RECORD_VERSION)
                                    .setKRaftVersion(features.kraftVersion()),
                            KRAFT_VERSION_RECORD_VERSION));
            voters.ifPresent(initial -> header.appendControlRecord(
                    timestamp,
                    ControlRecordType.KRAFT_VOTERS,
                    serialize(initial.toVotersRecord(listenerName, VOTERS_RECORD_VERSION), VOTERS_RECORD_VERSION)));
        }
        List<ByteBuffer> batches = new ArrayList<>();
        batches.add(header.build());
        int offset = header.numRecords();
        RecordBatchBuilder metadata = batch(offset);
        for (FeatureLevelRecord record : features.records()) {
            metadata.append(
                    timestamp, null, MetadataRecordSerde.serialize(record, FEATURE_LEVEL_RECORD_VERSION), List.of());
        }
        // The SCRAM credentials and ACLs after the features, at version 0, as Kafka's format tool adds them.
        for (MetadataRecord record : records) {
            metadata.append(timestamp, null, MetadataRecordSerde.serialize(record, (short) 0), List.of());
        }
        batches.add(metadata.build());
        offset += metadata.numRecords();
        batches.add(batch(offset)
                .appendControlRecord(
                        timestamp,
                        ControlRecordType.SNAPSHOT_FOOTER,
                        serialize(
                                new SnapshotFooterRecord().setVersion(SNAPSHOT_FOOTER_VERSION),
                                SNAPSHOT_FOOTER_VERSION))
                .build());

        ByteBuffer file = ByteBuffer.allocate(
                batches.stream().mapToInt(ByteBuffer::remaining).sum());
        batches.forEach(file::put);
        return file.flip();
    }

    /**
     * Writes the snapshot into {@code metadataLogDir} as Kafka does: to a temporary {@code .checkpoint.part} file
     * (owner-only), synced, renamed into place, the directory synced, and made read-only.
     */
    static void write(Path metadataLogDir, ByteBuffer content) throws IOException {
        Path directory = Files.createDirectories(metadataLogDir.resolve(DIRECTORY));
        Path temp =
                Files.createTempFile(directory, FILE_NAME.substring(0, FILE_NAME.indexOf('.')) + "-", PARTIAL_SUFFIX);
        Path file = directory.resolve(FILE_NAME);
        AtomicFileWriter.write(file, temp, content, true);
        // As Kafka: read-only where the file system allows it, without failing where it does not.
        file.toFile().setReadOnly();
    }

    private static RecordBatchBuilder batch(long baseOffset) {
        return new RecordBatchBuilder(Compression.NONE, TimestampType.CREATE_TIME, baseOffset)
                .partitionLeaderEpoch(EPOCH);
    }

    private static ByteBuffer serialize(ApiMessage message, short version) {
        ObjectSerializationCache cache = new ObjectSerializationCache();
        ByteBuffer buffer = ByteBuffer.allocate(message.size(cache, version));
        message.write(new ByteBufferAccessor(buffer), cache, version);
        return buffer.flip();
    }
}
