package io.krabka.kernel.group;

import io.krabka.kernel.coordinator.CoordinatorRecordException;
import io.krabka.kernel.coordinator.RecordFields;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.Optional;
import org.apache.kafka.common.protocol.ByteBufferAccessor;

/**
 * Kafka's framing of the records of {@code __consumer_offsets} ({@code CoordinatorRecordSerde}): the key is an int16
 * record type then the key at version 0; the value is an int16 version then the value; a tombstone has no value.
 */
public final class CoordinatorRecordSerde {

    private CoordinatorRecordSerde() {}

    /** The record's key bytes. */
    public static byte[] serializeKey(CoordinatorRecord record) {
        return switch (record) {
            case CoordinatorRecord.GroupMetadata group ->
                RecordFields.bytes(out -> {
                    out.writeShort(GroupMetadataKey.RECORD_TYPE);
                    group.key().write(out);
                });
            case CoordinatorRecord.OffsetCommit offset ->
                RecordFields.bytes(out -> {
                    out.writeShort(OffsetCommitKey.RECORD_TYPE);
                    offset.key().write(out);
                });
        };
    }

    /** The record's value bytes at the version Kafka 4.4 writes, or null for a tombstone. */
    public static byte[] serializeValue(CoordinatorRecord record) {
        return switch (record) {
            case CoordinatorRecord.GroupMetadata group
            when group.value() != null ->
                RecordFields.bytes(out -> {
                    out.writeShort(GroupMetadataValue.WRITE_VERSION);
                    group.value().write(out, GroupMetadataValue.WRITE_VERSION);
                });
            case CoordinatorRecord.OffsetCommit offset
            when offset.value() != null ->
                RecordFields.bytes(out -> {
                    short version = offset.value().writeVersion();
                    out.writeShort(version);
                    offset.value().write(out, version);
                });
            default -> null;
        };
    }

    /**
     * Decodes a record; empty for a record type the classic coordinator does not keep (the consumer, share and
     * streams groups' records), which Kafka's loader also skips.
     *
     * @param value the value, or null for a tombstone
     * @throws CoordinatorRecordException if the bytes do not decode
     */
    public static Optional<CoordinatorRecord> deserialize(ByteBuffer key, ByteBuffer value) {
        if (key == null) {
            throw new CoordinatorRecordException("a record of __consumer_offsets without a key");
        }
        try {
            ByteBufferAccessor keyIn = new ByteBufferAccessor(key.duplicate());
            short type = keyIn.readShort();
            Optional<CoordinatorRecord> record = switch (type) {
                case GroupMetadataKey.RECORD_TYPE ->
                    Optional.of(new CoordinatorRecord.GroupMetadata(
                            GroupMetadataKey.read(keyIn), value == null ? null : readGroup(value)));
                case OffsetCommitKey.RECORD_TYPE, OffsetCommitKey.LEGACY_RECORD_TYPE ->
                    Optional.of(new CoordinatorRecord.OffsetCommit(
                            OffsetCommitKey.read(keyIn), value == null ? null : readOffset(value)));
                default -> Optional.empty();
            };
            if (record.isPresent() && keyIn.remaining() != 0) {
                throw new CoordinatorRecordException(
                        keyIn.remaining() + " bytes left after the key of " + record.get());
            }
            return record;
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            throw new CoordinatorRecordException("a truncated or malformed record: " + e);
        }
    }

    private static GroupMetadataValue readGroup(ByteBuffer value) {
        ByteBufferAccessor in = new ByteBufferAccessor(value.duplicate());
        GroupMetadataValue read = GroupMetadataValue.read(in, in.readShort());
        checkConsumed(in, "GroupMetadataValue");
        return read;
    }

    private static OffsetCommitValue readOffset(ByteBuffer value) {
        ByteBufferAccessor in = new ByteBufferAccessor(value.duplicate());
        OffsetCommitValue read = OffsetCommitValue.read(in, in.readShort());
        checkConsumed(in, "OffsetCommitValue");
        return read;
    }

    private static void checkConsumed(ByteBufferAccessor in, String what) {
        if (in.remaining() != 0) {
            throw new CoordinatorRecordException(in.remaining() + " bytes left after a " + what);
        }
    }
}
