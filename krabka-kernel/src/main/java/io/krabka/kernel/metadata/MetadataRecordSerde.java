package io.krabka.kernel.metadata;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.utils.internals.ByteUtils;

/**
 * The value of a record in Kafka's metadata log, as Kafka's {@code MetadataRecordSerde} frames it: unsigned
 * varints for the frame version (1), the record's api key and its version, then the record.
 */
public final class MetadataRecordSerde {

    /** The frame version Kafka writes. */
    public static final int FRAME_VERSION = 1;

    private MetadataRecordSerde() {}

    /** The framed record at {@code version}: a buffer holding exactly it. */
    public static ByteBuffer serialize(MetadataRecord record, short version) {
        int size = ByteUtils.sizeOfUnsignedVarint(FRAME_VERSION)
                + ByteUtils.sizeOfUnsignedVarint(record.apiKey())
                + ByteUtils.sizeOfUnsignedVarint(version)
                + record.size(version);
        ByteBuffer buffer = ByteBuffer.allocate(size);
        ByteBufferAccessor out = new ByteBufferAccessor(buffer);
        out.writeUnsignedVarint(FRAME_VERSION);
        out.writeUnsignedVarint(record.apiKey());
        out.writeUnsignedVarint(version);
        record.write(out, version);
        return buffer.flip();
    }

    /** The framed record at its version. */
    public static ByteBuffer serialize(MetadataRecordAndVersion record) {
        return serialize(record.record(), record.version());
    }

    /**
     * Reads a framed record: the whole of {@code value} (from its position to its limit), which is not moved.
     *
     * @throws MetadataParseException for another frame version, a record type or version Kafka 4.4 does not write,
     *                                a cut record or bytes left over
     */
    public static MetadataRecordAndVersion read(ByteBuffer value) {
        ByteBufferAccessor in = new ByteBufferAccessor(value.duplicate());
        try {
            readFrameVersion(in);
            int apiKey = in.readUnsignedVarint();
            int version = in.readUnsignedVarint();
            MetadataRecord record = switch (apiKey) {
                case TopicRecord.API_KEY -> TopicRecord.read(in, checkVersion(apiKey, version, 0));
                case PartitionRecord.API_KEY -> PartitionRecord.read(in, checkVersion(apiKey, version, 2));
                case ConfigRecord.API_KEY -> ConfigRecord.read(in, checkVersion(apiKey, version, 0));
                case RemoveTopicRecord.API_KEY -> RemoveTopicRecord.read(in, checkVersion(apiKey, version, 0));
                case FeatureLevelRecord.API_KEY -> FeatureLevelRecord.read(in, checkVersion(apiKey, version, 0));
                case ProducerIdsRecord.API_KEY -> ProducerIdsRecord.read(in, checkVersion(apiKey, version, 0));
                case PartitionChangeRecord.API_KEY -> PartitionChangeRecord.read(in, checkVersion(apiKey, version, 2));
                case UserScramCredentialRecord.API_KEY ->
                    UserScramCredentialRecord.read(in, checkVersion(apiKey, version, 0));
                case AccessControlEntryRecord.API_KEY ->
                    AccessControlEntryRecord.read(in, checkVersion(apiKey, version, 0));
                case RemoveAccessControlEntryRecord.API_KEY ->
                    RemoveAccessControlEntryRecord.read(in, checkVersion(apiKey, version, 0));
                case RemoveUserScramCredentialRecord.API_KEY ->
                    RemoveUserScramCredentialRecord.read(in, checkVersion(apiKey, version, 0));
                case ClientQuotaRecord.API_KEY -> ClientQuotaRecord.read(in, checkVersion(apiKey, version, 0));
                default -> readOther(in, apiKey, version);
            };
            if (in.remaining() > 0) {
                throw new MetadataParseException("Found " + in.remaining() + " byte(s) of garbage after "
                        + record.getClass().getSimpleName());
            }
            return new MetadataRecordAndVersion(record, (short) version);
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            throw new MetadataParseException("Cut or invalid metadata record: " + e.getMessage(), e);
        }
    }

    /**
     * The api key of a framed record, read without reading the record: for a reader that takes some types and
     * skips the others, such as those of a whole cluster's snapshot. {@code value} is not moved.
     *
     * @throws MetadataParseException for another frame version or a cut frame
     */
    public static int apiKey(ByteBuffer value) {
        ByteBufferAccessor in = new ByteBufferAccessor(value.duplicate());
        try {
            readFrameVersion(in);
            return in.readUnsignedVarint();
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            throw new MetadataParseException("Cut or invalid metadata record: " + e.getMessage(), e);
        }
    }

    // A transaction marker, or a record of a type Kafka writes that is kept as it is; any other type is unknown.
    private static MetadataRecord readOther(ByteBufferAccessor in, int apiKey, int version) {
        for (MetadataTransactionRecord.Kind kind : MetadataTransactionRecord.Kind.values()) {
            if (kind.apiKey() == apiKey) {
                checkVersion(apiKey, version, 0);
                return MetadataTransactionRecord.read(in, kind);
            }
        }
        RetainedRecordType type = RetainedRecordType.of(apiKey)
                .orElseThrow(() -> new MetadataParseException("Krabka does not know metadata record type " + apiKey));
        ByteBuffer body = in.buffer().slice();
        in.buffer().position(in.buffer().limit());
        return new RetainedRecord(type, checkVersion(apiKey, version, type.highestVersion()), body);
    }

    private static void readFrameVersion(ByteBufferAccessor in) {
        int frameVersion = in.readUnsignedVarint();
        if (frameVersion != FRAME_VERSION) {
            throw new MetadataParseException("Could not deserialize metadata record due to unknown frame version "
                    + frameVersion + "(only frame version " + FRAME_VERSION + " is supported)");
        }
    }

    private static short checkVersion(int apiKey, int version, int highest) {
        if (version < 0 || version > highest) {
            throw new MetadataParseException("Metadata record type " + apiKey + " has no version " + version);
        }
        return (short) version;
    }
}
