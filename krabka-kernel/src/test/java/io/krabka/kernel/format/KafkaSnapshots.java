package io.krabka.kernel.format;

import io.krabka.kernel.metadata.MetadataVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Supplier;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.MetadataRecordSerde;
import org.apache.kafka.metadata.bootstrap.BootstrapMetadata;
import org.apache.kafka.raft.Batch;
import org.apache.kafka.raft.KafkaRaftClient;
import org.apache.kafka.server.common.ApiMessageAndVersion;
import org.apache.kafka.server.common.KRaftVersion;
import org.apache.kafka.server.common.OffsetAndEpoch;
import org.apache.kafka.snapshot.FileRawSnapshotReader;
import org.apache.kafka.snapshot.FileRawSnapshotWriter;
import org.apache.kafka.snapshot.RecordsSnapshotReader;
import org.apache.kafka.snapshot.RecordsSnapshotWriter;

/**
 * Kafka 4.4's own bootstrap snapshot, written as its format tool writes it (the tool's
 * {@code Formatter.writeBoostrapSnapshot}: Kafka's bootstrap records, its snapshot writer, its voter set) but with a
 * clock stopped at one instant, so that its bytes can be compared with Krabka's whole; and Kafka's reader.
 */
final class KafkaSnapshots {
    private static final OffsetAndEpoch BOOTSTRAP_SNAPSHOT_ID = new OffsetAndEpoch(0, 0);

    private KafkaSnapshots() {}

    /** Kafka's snapshot file, written under {@code logDir}. */
    static Path write(
            Path logDir,
            long timestamp,
            MetadataVersion metadataVersion,
            Map<String, Short> levels,
            Optional<String> initialControllers,
            String listenerName)
            throws IOException {
        Path directory = Files.createDirectories(logDir.resolve(BootstrapSnapshot.DIRECTORY));
        BootstrapMetadata bootstrap = BootstrapMetadata.fromVersions(kafka(metadataVersion), levels, "format command");
        RecordsSnapshotWriter.Builder builder = new RecordsSnapshotWriter.Builder()
                .setLastContainedLogTimestamp(timestamp)
                .setMaxBatchSizeBytes(KafkaRaftClient.MAX_BATCH_SIZE_BYTES)
                .setRawSnapshotWriter(FileRawSnapshotWriter.create(directory, BOOTSTRAP_SNAPSHOT_ID))
                .setKraftVersion(KRaftVersion.fromFeatureLevel(levels.get(KRaftVersion.FEATURE_NAME)))
                .setVoterSet(initialControllers.map(voters ->
                        org.apache.kafka.raft.DynamicVoters.parse(voters).toVoterSet(listenerName)))
                .setTime(new StoppedTime(timestamp));
        try (RecordsSnapshotWriter<ApiMessageAndVersion> writer = builder.build(new MetadataRecordSerde())) {
            writer.append(bootstrap.records());
            writer.freeze();
        }
        return directory.resolve(BootstrapSnapshot.FILE_NAME);
    }

    /** Kafka's metadata.version of the same level. */
    static org.apache.kafka.server.common.MetadataVersion kafka(MetadataVersion version) {
        return org.apache.kafka.server.common.MetadataVersion.fromFeatureLevel(version.featureLevel());
    }

    /**
     * What Kafka's snapshot reader reads from a snapshot file: its last contained log timestamp, then each batch
     * as {@code control:} its control records or {@code data:} its metadata records.
     */
    static List<String> read(Path snapshotFile) {
        List<String> read = new ArrayList<>();
        try (RecordsSnapshotReader<ApiMessageAndVersion> reader = RecordsSnapshotReader.of(
                FileRawSnapshotReader.open(snapshotFile.getParent(), BOOTSTRAP_SNAPSHOT_ID),
                new MetadataRecordSerde(),
                org.apache.kafka.common.utils.internals.BufferSupplier.create(),
                KafkaRaftClient.MAX_BATCH_SIZE_BYTES,
                true,
                new org.apache.kafka.common.utils.internals.LogContext())) {
            read.add("lastContainedLogTimestamp " + reader.lastContainedLogTimestamp());
            while (reader.hasNext()) {
                Batch<ApiMessageAndVersion> batch = reader.next();
                read.add(batch.records().isEmpty() ? "control: " + batch.controlRecords() : "data: " + batch.records());
            }
        }
        return read;
    }

    /** Kafka's clock, stopped. */
    private record StoppedTime(long millis) implements Time {
        @Override
        public long milliseconds() {
            return millis;
        }

        @Override
        public long nanoseconds() {
            return millis * 1_000_000;
        }

        @Override
        public void sleep(long ms) {
            throw new UnsupportedOperationException("a stopped clock does not sleep");
        }

        @Override
        public void waitObject(Object lock, Supplier<Boolean> condition, long deadlineMs) {
            throw new UnsupportedOperationException("a stopped clock does not wait");
        }
    }
}
