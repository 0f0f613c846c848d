package io.krabka.kernel.record;

import java.nio.ByteBuffer;
import java.util.zip.CRC32;

/**
 * A view of one v0/v1 message (Kafka's {@code LegacyRecord}), the bytes after an entry's offset and size:
 * <pre>
 * 0 CRC uint32 (CRC-32 over magic..end) | 4 Magic int8 | 5 Attributes int8 | [6 Timestamp int64, v1 only] |
 * KeyLength int32 (-1 null) | Key | ValueLength int32 (-1 null) | Value
 * </pre>
 * Attributes: bits 0–2 compression (gzip, snappy, lz4; never zstd), bit 3 timestamp type (v1). The framing is
 * checked when the view is made; the CRC by {@link #isValid()}.
 */
public final class LegacyRecord {

    /** Field positions. */
    public static final int CRC_OFFSET = 0,
            MAGIC_OFFSET = 4,
            ATTRIBUTES_OFFSET = 5,
            TIMESTAMP_OFFSET = 6,
            KEY_SIZE_OFFSET_V0 = 6,
            KEY_SIZE_OFFSET_V1 = 14;
    /** The smallest message of each version: null key and value. */
    public static final int RECORD_OVERHEAD_V0 = 14, RECORD_OVERHEAD_V1 = 22;

    private final ByteBuffer buffer;
    private final String source;
    private final long sourcePosition;
    private final int keySize;
    private final int valueSize;

    /**
     * A view of {@code message}, which holds exactly one message from index 0 to its limit.
     *
     * @param sourcePosition where the message (its CRC field) lies in the source, for error messages
     * @throws CorruptRecordException if the magic is not 0 or 1 or the lengths do not fit the bytes
     */
    LegacyRecord(ByteBuffer message, String source, long sourcePosition) {
        this.buffer = message;
        this.source = source;
        this.sourcePosition = sourcePosition;
        if (message.limit() < RECORD_OVERHEAD_V0) {
            throw corrupt("message of " + message.limit() + " bytes is smaller than the minimum " + RECORD_OVERHEAD_V0);
        }
        byte magic = magic();
        if (magic != 0 && magic != 1) {
            throw corrupt("invalid magic " + magic + " for a legacy message");
        }
        int keySizeOffset = magic == 0 ? KEY_SIZE_OFFSET_V0 : KEY_SIZE_OFFSET_V1;
        int overhead = magic == 0 ? RECORD_OVERHEAD_V0 : RECORD_OVERHEAD_V1;
        if (message.limit() < overhead) {
            throw corrupt("magic " + magic + " message of " + message.limit() + " bytes is smaller than the minimum "
                    + overhead);
        }
        this.keySize = message.getInt(keySizeOffset);
        int valueSizeOffset = keySizeOffset + 4 + Math.max(keySize, 0);
        if (keySize < -1 || valueSizeOffset + 4 > message.limit()) {
            throw corrupt("key size " + keySize + " does not fit a message of " + message.limit() + " bytes");
        }
        this.valueSize = message.getInt(valueSizeOffset);
        int end = valueSizeOffset + 4 + Math.max(valueSize, 0);
        if (valueSize < -1 || end != message.limit()) {
            throw corrupt("value size " + valueSize + " does not end the message of " + message.limit() + " bytes");
        }
    }

    /** The format version: 0 or 1. */
    public byte magic() {
        return buffer.get(MAGIC_OFFSET);
    }

    /** The attribute byte. */
    public byte attributes() {
        return buffer.get(ATTRIBUTES_OFFSET);
    }

    /**
     * The codec of the wrapped message set, NONE for a plain message.
     *
     * @throws InvalidRecordException if the attributes name zstd, which legacy formats do not allow
     * @throws UnsupportedCompressionTypeException if they name no codec
     */
    public CompressionType compressionType() {
        CompressionType type;
        try {
            type = CompressionType.forId(attributes() & RecordBatch.COMPRESSION_CODEC_MASK);
        } catch (UnsupportedCompressionTypeException e) {
            throw new UnsupportedCompressionTypeException(Records.at(source, sourcePosition) + ": " + e.getMessage());
        }
        if (type == CompressionType.ZSTD) {
            throw new InvalidRecordException(Records.at(source, sourcePosition)
                    + ": zstd compression is not allowed for magic " + magic() + " messages");
        }
        return type;
    }

    /** The stored timestamp (v1), or -1 for v0. */
    public long timestamp() {
        return magic() == 0 ? RecordBatch.NO_TIMESTAMP : buffer.getLong(TIMESTAMP_OFFSET);
    }

    /** The timestamp type: none for v0, from bit 3 for v1. */
    public TimestampType timestampType() {
        if (magic() == 0) {
            return TimestampType.NO_TIMESTAMP_TYPE;
        }
        return (attributes() & RecordBatch.TIMESTAMP_TYPE_MASK) == 0
                ? TimestampType.CREATE_TIME
                : TimestampType.LOG_APPEND_TIME;
    }

    /** The stored CRC-32. */
    public long checksum() {
        return Integer.toUnsignedLong(buffer.getInt(CRC_OFFSET));
    }

    /** The CRC-32 of the bytes from the magic to the end. */
    public long computeChecksum() {
        CRC32 crc = new CRC32();
        crc.update(buffer.duplicate().position(MAGIC_OFFSET));
        return crc.getValue();
    }

    /** Whether the stored CRC matches. */
    public boolean isValid() {
        return checksum() == computeChecksum();
    }

    /**
     * Checks the stored CRC.
     *
     * @throws CorruptRecordException naming the source and position when it does not match
     */
    public void ensureValid() {
        long stored = checksum();
        long computed = computeChecksum();
        if (stored != computed) {
            throw corrupt("record is corrupt (stored crc = " + stored + ", computed crc = " + computed + ")");
        }
    }

    /** The key, or null. */
    public ByteBuffer key() {
        int at = (magic() == 0 ? KEY_SIZE_OFFSET_V0 : KEY_SIZE_OFFSET_V1) + 4;
        return keySize < 0 ? null : buffer.slice(at, keySize).asReadOnlyBuffer();
    }

    /** The value, or null. */
    public ByteBuffer value() {
        int at = buffer.limit() - Math.max(valueSize, 0);
        return valueSize < 0 ? null : buffer.slice(at, valueSize).asReadOnlyBuffer();
    }

    /** The message bytes. */
    ByteBuffer buffer() {
        return buffer.duplicate();
    }

    private CorruptRecordException corrupt(String detail) {
        return new CorruptRecordException(Records.at(source, sourcePosition) + ": " + detail);
    }
}
