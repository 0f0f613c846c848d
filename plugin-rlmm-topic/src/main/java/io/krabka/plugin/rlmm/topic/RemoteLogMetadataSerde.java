package io.krabka.plugin.rlmm.topic;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.storage.CustomMetadata;
import io.krabka.spi.storage.RemoteLogMetadata;
import io.krabka.spi.storage.RemoteLogSegmentId;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteLogSegmentMetadataUpdate;
import io.krabka.spi.storage.RemoteLogSegmentState;
import io.krabka.spi.storage.RemotePartitionDeleteMetadata;
import io.krabka.spi.storage.RemotePartitionDeleteState;
import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.DataOutputStreamWritable;
import org.apache.kafka.common.protocol.Readable;
import org.apache.kafka.common.protocol.Writable;

/**
 * The values of {@code __remote_log_metadata} records, byte for byte as Kafka's {@code RemoteLogMetadataSerde}
 * writes and reads them: a frame (frame version 1, api key, message version, each an unsigned varint) around one
 * of the four messages of Kafka's {@code storage/src/main/resources/message/} schemas, all at version 0:
 * <ul>
 *     <li>0 {@code RemoteLogSegmentMetadataRecord}, a segment's metadata ({@link RemoteLogSegmentMetadata});</li>
 *     <li>1 {@code RemoteLogSegmentMetadataUpdateRecord}, a change of its state ({@link RemoteLogSegmentMetadataUpdate});</li>
 *     <li>2 {@code RemotePartitionDeleteMetadataRecord}, a step of a partition's deletion ({@link RemotePartitionDeleteMetadata});</li>
 *     <li>3 {@code RemoteLogSegmentMetadataSnapshotRecord}, a segment's metadata without its partition, which Kafka
 *     kept in its local snapshots and this plugin keeps in its own ({@link #serializeSnapshotSegment}).</li>
 * </ul>
 * Reading tolerates tagged fields it does not know, as Kafka's generated readers do, so a record written by a
 * newer Kafka (version 1 of record 0 adds a tagged field) is read.
 */
final class RemoteLogMetadataSerde {

    private static final int FRAME_VERSION = 1;
    private static final short SEGMENT = 0;
    private static final short SEGMENT_UPDATE = 1;
    private static final short PARTITION_DELETE = 2;
    private static final short SEGMENT_SNAPSHOT = 3;
    // Record 0 is at version 1 in Kafka after 4.4 (a tagged field only); every other record has version 0 alone.
    private static final short HIGHEST_SEGMENT_VERSION = 1;

    private RemoteLogMetadataSerde() {}

    /** The record value Kafka writes for {@code metadata}. */
    static byte[] serialize(RemoteLogMetadata metadata) {
        return framed(
                switch (metadata) {
                    case RemoteLogSegmentMetadata segment -> SEGMENT;
                    case RemoteLogSegmentMetadataUpdate update -> SEGMENT_UPDATE;
                    case RemotePartitionDeleteMetadata delete -> PARTITION_DELETE;
                },
                out -> {
                    switch (metadata) {
                        case RemoteLogSegmentMetadata segment -> {
                            writeSegmentId(out, segment.remoteLogSegmentId());
                            writeSegmentBody(out, segment);
                        }
                        case RemoteLogSegmentMetadataUpdate update -> {
                            writeSegmentId(out, update.remoteLogSegmentId());
                            out.writeInt(update.brokerId());
                            out.writeLong(update.eventTimestampMs());
                            FlexibleFields.writeNullableBytes(
                                    out, update.customMetadata().map(CustomMetadata::value));
                            out.writeByte(update.state().id());
                            FlexibleFields.writeNoTaggedFields(out);
                        }
                        case RemotePartitionDeleteMetadata delete -> {
                            writeTopicIdPartition(out, delete.topicIdPartition());
                            out.writeInt(delete.brokerId());
                            out.writeLong(delete.eventTimestampMs());
                            out.writeByte(delete.state().id());
                            FlexibleFields.writeNoTaggedFields(out);
                        }
                    }
                });
    }

    /**
     * Reads a record value Kafka wrote.
     *
     * @throws MetadataRecordException if it is not a frame of record 0, 1 or 2 as their schemas say
     */
    static RemoteLogMetadata deserialize(byte[] value) {
        return unframed(value, (apiKey, in) -> switch (apiKey) {
            case SEGMENT -> {
                RemoteLogSegmentId id = readSegmentId(in);
                yield readSegmentBody(in, id);
            }
            case SEGMENT_UPDATE -> {
                RemoteLogSegmentId id = readSegmentId(in);
                int brokerId = in.readInt();
                long eventTimestampMs = in.readLong();
                Optional<CustomMetadata> custom =
                        FlexibleFields.readNullableBytes(in).map(CustomMetadata::new);
                RemoteLogSegmentState state = RemoteLogSegmentState.forId(in.readByte());
                FlexibleFields.skipTaggedFields(in);
                yield new RemoteLogSegmentMetadataUpdate(id, eventTimestampMs, custom, state, brokerId);
            }
            case PARTITION_DELETE -> {
                TopicIdPartition partition = readTopicIdPartition(in);
                int brokerId = in.readInt();
                long eventTimestampMs = in.readLong();
                RemotePartitionDeleteState state = RemotePartitionDeleteState.forId(in.readByte());
                FlexibleFields.skipTaggedFields(in);
                yield new RemotePartitionDeleteMetadata(partition, state, eventTimestampMs, brokerId);
            }
            default ->
                throw new MetadataRecordException("api key " + apiKey + " is not a remote log metadata "
                        + "record Kafka writes to the topic (0, 1 or 2)");
        });
    }

    /** Record 3, a segment's metadata without its partition, as Kafka's local snapshots held it. */
    static byte[] serializeSnapshotSegment(RemoteLogSegmentMetadata segment) {
        return framed(SEGMENT_SNAPSHOT, out -> {
            FlexibleFields.writeUuid(out, segment.remoteLogSegmentId().id());
            writeSegmentBody(out, segment);
        });
    }

    /**
     * Reads record 3 as a segment of {@code partition}.
     *
     * @throws MetadataRecordException if it is not a frame of record 3 as its schema says
     */
    static RemoteLogSegmentMetadata deserializeSnapshotSegment(byte[] value, TopicIdPartition partition) {
        RemoteLogMetadata read = unframed(value, (apiKey, in) -> {
            if (apiKey != SEGMENT_SNAPSHOT) {
                throw new MetadataRecordException("api key " + apiKey + " is not a segment snapshot record (3)");
            }
            return readSegmentBody(in, new RemoteLogSegmentId(partition, FlexibleFields.readUuid(in)));
        });
        return (RemoteLogSegmentMetadata) read;
    }

    /** What records 0 and 3 share after the segment's identity. */
    private static void writeSegmentBody(Writable out, RemoteLogSegmentMetadata segment) {
        out.writeLong(segment.startOffset());
        out.writeLong(segment.endOffset());
        out.writeInt(segment.brokerId());
        out.writeLong(segment.maxTimestampMs());
        out.writeLong(segment.eventTimestampMs());
        out.writeUnsignedVarint(segment.segmentLeaderEpochs().size() + 1);
        segment.segmentLeaderEpochs().forEach((epoch, offset) -> {
            out.writeInt(epoch);
            out.writeLong(offset);
            FlexibleFields.writeNoTaggedFields(out);
        });
        out.writeInt(segment.segmentSizeInBytes());
        FlexibleFields.writeNullableBytes(out, segment.customMetadata().map(CustomMetadata::value));
        out.writeByte(segment.state().id());
        FlexibleFields.writeTaggedTrueFlag(out, segment.txnIdxEmpty());
    }

    private static RemoteLogSegmentMetadata readSegmentBody(Readable in, RemoteLogSegmentId id) {
        long startOffset = in.readLong();
        long endOffset = in.readLong();
        int brokerId = in.readInt();
        long maxTimestampMs = in.readLong();
        long eventTimestampMs = in.readLong();
        int epochs = FlexibleFields.readArrayLength(in, "SegmentLeaderEpochs");
        Map<Integer, Long> leaderEpochs = new TreeMap<>();
        for (int i = 0; i < epochs; i++) {
            leaderEpochs.put(in.readInt(), in.readLong());
            FlexibleFields.skipTaggedFields(in);
        }
        int size = in.readInt();
        Optional<CustomMetadata> custom = FlexibleFields.readNullableBytes(in).map(CustomMetadata::new);
        RemoteLogSegmentState state = RemoteLogSegmentState.forId(in.readByte());
        boolean txnIdxEmpty = FlexibleFields.readTaggedFlag(in);
        return new RemoteLogSegmentMetadata(
                id,
                startOffset,
                endOffset,
                maxTimestampMs,
                brokerId,
                eventTimestampMs,
                size,
                custom,
                state,
                new TreeMap<>(leaderEpochs),
                txnIdxEmpty);
    }

    private static void writeSegmentId(Writable out, RemoteLogSegmentId id) {
        writeTopicIdPartition(out, id.topicIdPartition());
        FlexibleFields.writeUuid(out, id.id());
        FlexibleFields.writeNoTaggedFields(out);
    }

    private static RemoteLogSegmentId readSegmentId(Readable in) {
        TopicIdPartition partition = readTopicIdPartition(in);
        RemoteLogSegmentId id = new RemoteLogSegmentId(partition, FlexibleFields.readUuid(in));
        FlexibleFields.skipTaggedFields(in);
        return id;
    }

    private static void writeTopicIdPartition(Writable out, TopicIdPartition partition) {
        FlexibleFields.writeString(out, partition.topic());
        FlexibleFields.writeUuid(out, partition.topicId());
        out.writeInt(partition.partition());
        FlexibleFields.writeNoTaggedFields(out);
    }

    private static TopicIdPartition readTopicIdPartition(Readable in) {
        String topic = FlexibleFields.readString(in, "TopicIdPartition.Name");
        TopicIdPartition partition = new TopicIdPartition(FlexibleFields.readUuid(in), topic, in.readInt());
        FlexibleFields.skipTaggedFields(in);
        return partition;
    }

    private static byte[] framed(short apiKey, Consumer<Writable> message) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
        Writable out = new DataOutputStreamWritable(new DataOutputStream(bytes));
        out.writeUnsignedVarint(FRAME_VERSION);
        out.writeUnsignedVarint(apiKey);
        out.writeUnsignedVarint(0);
        message.accept(out);
        return bytes.toByteArray();
    }

    private interface MessageReader {
        RemoteLogMetadata read(short apiKey, Readable in);
    }

    private static RemoteLogMetadata unframed(byte[] value, MessageReader reader) {
        if (value == null) {
            throw new MetadataRecordException("the record has no value");
        }
        ByteBufferAccessor in = new ByteBufferAccessor(ByteBuffer.wrap(value));
        try {
            int frameVersion = in.readUnsignedVarint();
            if (frameVersion != FRAME_VERSION) {
                throw new MetadataRecordException(
                        "frame version " + frameVersion + " is not " + FRAME_VERSION + ", the only one Kafka writes");
            }
            int apiKey = in.readUnsignedVarint();
            int version = in.readUnsignedVarint();
            int highest = apiKey == SEGMENT ? HIGHEST_SEGMENT_VERSION : 0;
            if (apiKey > Short.MAX_VALUE || version > highest) {
                throw new MetadataRecordException("record " + apiKey + " at version " + version
                        + " is newer than this plugin reads (version " + highest + ")");
            }
            RemoteLogMetadata metadata = reader.read((short) apiKey, in);
            if (in.remaining() > 0) {
                throw new MetadataRecordException(in.remaining() + " bytes follow record " + apiKey);
            }
            return metadata;
        } catch (BufferUnderflowException e) {
            throw new MetadataRecordException("the record ends before its last field", e);
        } catch (IllegalArgumentException e) {
            throw new MetadataRecordException("the record holds an invalid value: " + e.getMessage(), e);
        }
    }
}
