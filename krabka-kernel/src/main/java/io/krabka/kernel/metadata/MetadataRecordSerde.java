package io.krabka.kernel.metadata;

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

    private MetadataRecordSerde() {
    }

    /** The framed record at {@code version}: a buffer holding exactly it. */
    public static ByteBuffer serialize(MetadataRecord record, short version) {
        int size = ByteUtils.sizeOfUnsignedVarint(FRAME_VERSION) + ByteUtils.sizeOfUnsignedVarint(record.apiKey())
                + ByteUtils.sizeOfUnsignedVarint(version) + record.size(version);
        ByteBuffer buffer = ByteBuffer.allocate(size);
        ByteBufferAccessor out = new ByteBufferAccessor(buffer);
        out.writeUnsignedVarint(FRAME_VERSION);
        out.writeUnsignedVarint(record.apiKey());
        out.writeUnsignedVarint(version);
        record.write(out, version);
        return buffer.flip();
    }
}
