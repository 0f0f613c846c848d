package io.krabka.kernel.restore.metadata;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.utils.Time;
import org.apache.kafka.metadata.MetadataRecordSerde;
import org.apache.kafka.raft.KafkaRaftClient;
import org.apache.kafka.server.common.ApiMessageAndVersion;
import org.apache.kafka.server.common.KRaftVersion;
import org.apache.kafka.server.common.OffsetAndEpoch;
import org.apache.kafka.snapshot.FileRawSnapshotWriter;
import org.apache.kafka.snapshot.RecordsSnapshotWriter;

/**
 * A cluster's metadata snapshot written by Kafka 4.4's own snapshot writer, as its controller writes one: the header
 * batch with the KRaft version and the voters, the records in batches of at most Kafka's batch size, the footer.
 */
final class KafkaClusterSnapshot {
    private static final OffsetAndEpoch SNAPSHOT_ID = new OffsetAndEpoch(1234, 5);

    private KafkaClusterSnapshot() {}

    /** Writes {@code records} as a snapshot in {@code directory}; its file, {@code <offset>-<epoch>.checkpoint}. */
    static Path write(Path directory, List<List<ApiMessageAndVersion>> batches) {
        RecordsSnapshotWriter.Builder builder = new RecordsSnapshotWriter.Builder()
                .setLastContainedLogTimestamp(1_700_000_000_000L)
                .setMaxBatchSizeBytes(KafkaRaftClient.MAX_BATCH_SIZE_BYTES)
                .setRawSnapshotWriter(FileRawSnapshotWriter.create(directory, SNAPSHOT_ID))
                .setKraftVersion(KRaftVersion.KRAFT_VERSION_1)
                .setVoterSet(Optional.of(org.apache.kafka.raft.DynamicVoters.parse(
                                "1@localhost:9093:" + org.apache.kafka.common.Uuid.randomUuid())
                        .toVoterSet("CONTROLLER")))
                .setTime(Time.SYSTEM);
        try (RecordsSnapshotWriter<ApiMessageAndVersion> writer = builder.build(new MetadataRecordSerde())) {
            batches.forEach(writer::append);
            writer.freeze();
        }
        return directory.resolve(String.format("%020d-%010d.checkpoint", SNAPSHOT_ID.offset(), SNAPSHOT_ID.epoch()));
    }
}
