package io.krabka.kernel.group;

import io.krabka.kernel.coordinator.CoordinatorLogWriter;
import io.krabka.kernel.coordinator.CoordinatorLogWriter.KeyValue;
import io.krabka.kernel.coordinator.CoordinatorLogWriter.TransactionalProducer;
import io.krabka.kernel.log.TransactionResult;
import io.krabka.kernel.record.Compression;
import io.krabka.kernel.record.CompressionType;
import io.krabka.spi.common.TopicPartition;
import java.util.List;
import java.util.Objects;
import java.util.function.IntUnaryOperator;

/**
 * Writes the group coordinator's records to {@code __consumer_offsets}: one batch per call, in the codec of
 * {@code offsets.topic.compression.codec}, to the partition of the group, at its leader epoch; and the markers that
 * end the transactions of transactional offset commits.
 */
final class OffsetsTopicWriter implements CoordinatorWriter {

    private final CoordinatorLogWriter writer;
    private final OffsetsTopic topic;
    private final Compression compression;
    private final IntUnaryOperator leaderEpoch;

    /**
     * A writer.
     *
     * @param leaderEpoch the current leader epoch of a partition
     */
    OffsetsTopicWriter(
            CoordinatorLogWriter writer,
            OffsetsTopic topic,
            CompressionType compression,
            IntUnaryOperator leaderEpoch) {
        this.writer = Objects.requireNonNull(writer, "writer");
        this.topic = Objects.requireNonNull(topic, "topic");
        this.compression = Compression.of(compression);
        this.leaderEpoch = Objects.requireNonNull(leaderEpoch, "leaderEpoch");
    }

    @Override
    public long append(String groupId, List<CoordinatorRecord> records, TransactionalProducer producer) {
        int partition = topic.partitionFor(groupId);
        return writer.append(
                        new TopicPartition(OffsetsTopic.NAME, partition),
                        leaderEpoch.applyAsInt(partition),
                        compression,
                        records.stream()
                                .map(record -> new KeyValue(
                                        CoordinatorRecordSerde.serializeKey(record),
                                        CoordinatorRecordSerde.serializeValue(record)))
                                .toList(),
                        producer)
                .firstOffset();
    }

    @Override
    public void appendMarker(
            int partition,
            long producerId,
            short producerEpoch,
            TransactionResult result,
            int coordinatorEpoch,
            short transactionVersion) {
        writer.appendMarker(
                new TopicPartition(OffsetsTopic.NAME, partition),
                leaderEpoch.applyAsInt(partition),
                producerId,
                producerEpoch,
                result,
                coordinatorEpoch,
                transactionVersion);
    }
}
