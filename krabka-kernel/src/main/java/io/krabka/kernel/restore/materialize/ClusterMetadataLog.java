package io.krabka.kernel.restore.materialize;

import io.krabka.kernel.controller.QuorumController;
import io.krabka.kernel.log.LogManager;
import io.krabka.kernel.metadata.ConfigRecord;
import io.krabka.kernel.metadata.FeatureLevelRecord;
import io.krabka.kernel.metadata.MetadataRecordAndVersion;
import io.krabka.kernel.metadata.MetadataRecordSerde;
import io.krabka.kernel.metadata.MetadataVersion;
import io.krabka.kernel.metadata.PartitionRecord;
import io.krabka.kernel.metadata.PartitionRegistration;
import io.krabka.kernel.metadata.TopicRecord;
import io.krabka.kernel.record.Compression;
import io.krabka.kernel.record.RecordBatchBuilder;
import io.krabka.kernel.record.TimestampType;
import io.krabka.spi.common.TopicPartition;
import io.krabka.spi.common.Uuid;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The restored node's metadata log, {@code __cluster_metadata-0}, as Krabka's controller would have written it:
 * first the bootstrap batch (the feature levels {@code krabka format} chose), then for each topic its
 * {@code TopicRecord}, its {@code ConfigRecord}s and a {@code PartitionRecord} per partition naming this node
 * leader and sole replica, in the log directory the format gave an id. Batches are framed as Kafka's KRaft leader
 * frames them (magic 2, uncompressed, CreateTime, the leader epoch as partition leader epoch), within the KRaft
 * batch bound and the controller's bound on the records of one operation.
 */
public final class ClusterMetadataLog {
    /** The metadata log's partition directory. */
    public static final String DIRECTORY = LogManager.CLUSTER_METADATA_TOPIC + "-0";
    // Kafka's KafkaRaftClient.MAX_BATCH_SIZE_BYTES and QuorumController.MAX_RECORDS_PER_USER_OP.
    private static final int MAX_BATCH_BYTES = 8 * 1024 * 1024;
    private static final int MAX_BATCH_RECORDS = 10_000;
    // A new metadata log's first epoch, as Krabka's controller takes it.
    private static final int EPOCH = 1;
    // Kafka's default min.insync.replicas, recorded with eligible leader replicas.
    private static final String MIN_IN_SYNC_REPLICAS = "1";

    private ClusterMetadataLog() {}

    /**
     * Writes the metadata log into {@code dir} (which must not exist).
     *
     * @param features    the bootstrap feature levels
     * @param version     the cluster's metadata.version
     * @param nodeId      the node leading every partition
     * @param directoryId the log directory's id
     */
    public static WrittenPartition write(
            Path dir,
            List<FeatureLevelRecord> features,
            MetadataVersion version,
            int nodeId,
            Uuid directoryId,
            List<RestoredTopic> topics,
            InstantSource time)
            throws IOException {
        List<List<MetadataRecordAndVersion>> batches = new ArrayList<>();
        batches.add(QuorumController.bootstrapRecords(features, MIN_IN_SYNC_REPLICAS));
        short partitionVersion = version.partitionRecordVersion();
        List<Uuid> directories = partitionVersion >= 1 ? List.of(directoryId) : List.of();
        List<MetadataRecordAndVersion> current = new ArrayList<>();
        for (RestoredTopic topic : topics) {
            List<MetadataRecordAndVersion> records = new ArrayList<>();
            records.add(new MetadataRecordAndVersion(new TopicRecord(topic.name(), topic.topicId()), (short) 0));
            new TreeMap<>(topic.configs())
                    .forEach((key, value) -> records.add(new MetadataRecordAndVersion(
                            new ConfigRecord(ConfigRecord.TOPIC, topic.name(), key, value), (short) 0)));
            for (Map.Entry<Integer, Integer> partition : topic.partitions().entrySet()) {
                PartitionRegistration registration =
                        new PartitionRegistration(List.of(nodeId), List.of(nodeId), nodeId, partition.getValue(), 0);
                records.add(new MetadataRecordAndVersion(
                        PartitionRecord.of(topic.topicId(), partition.getKey(), registration, directories),
                        partitionVersion));
            }
            // A topic's records stay in one batch, as the controller creates a topic in one operation.
            if (!current.isEmpty() && current.size() + records.size() > MAX_BATCH_RECORDS) {
                batches.add(current);
                current = new ArrayList<>();
            }
            current.addAll(records);
        }
        if (!current.isEmpty()) {
            batches.add(current);
        }

        PartitionWriter writer =
                new PartitionWriter(dir, new TopicPartition(LogManager.CLUSTER_METADATA_TOPIC, 0), time);
        writer.openSegment(0, 0);
        long offset = 0;
        long now = time.millis();
        for (List<MetadataRecordAndVersion> batch : batches) {
            RecordBatchBuilder builder = new RecordBatchBuilder(Compression.NONE, TimestampType.CREATE_TIME, offset)
                    .partitionLeaderEpoch(EPOCH);
            for (MetadataRecordAndVersion record : batch) {
                builder.append(now, (ByteBuffer) null, MetadataRecordSerde.serialize(record), List.of());
            }
            ByteBuffer bytes = builder.build();
            if (bytes.remaining() > MAX_BATCH_BYTES) {
                throw new IOException("the metadata of " + batch.size() + " records makes a batch of "
                        + bytes.remaining() + " bytes, above KRaft's " + MAX_BATCH_BYTES);
            }
            writer.append(bytes);
            offset += builder.numRecords();
        }
        writer.commitSegment(offset);
        return writer.finish(null);
    }
}
