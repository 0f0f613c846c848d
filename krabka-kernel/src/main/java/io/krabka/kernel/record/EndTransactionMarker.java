package io.krabka.kernel.record;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * The value of a transaction marker (a COMMIT or ABORT control record): int16 version (0), int32 coordinator
 * epoch.
 *
 * @param type             {@link ControlRecordType#COMMIT} or {@link ControlRecordType#ABORT}
 * @param coordinatorEpoch the epoch of the transaction coordinator that wrote it
 */
public record EndTransactionMarker(ControlRecordType type, int coordinatorEpoch) {

    /** The version of the value schema written. */
    public static final short CURRENT_VERSION = 0;
    /** Bytes in a value of version 0. */
    public static final int VALUE_SIZE = 6;

    /** Checks the type. */
    public EndTransactionMarker {
        Objects.requireNonNull(type, "type");
        if (type != ControlRecordType.COMMIT && type != ControlRecordType.ABORT) {
            throw new IllegalArgumentException("invalid control record type for end transaction marker " + type);
        }
    }

    /** The value bytes: version 0 and the coordinator epoch. */
    public ByteBuffer serializeValue() {
        return ByteBuffer.allocate(VALUE_SIZE).putShort(0, CURRENT_VERSION).putInt(2, coordinatorEpoch);
    }

    /**
     * The marker a control record holds. Versions above 0 are read as 0, whose fields they keep.
     *
     * @throws InvalidRecordException if the record is not a COMMIT or ABORT marker or its value is malformed
     */
    public static EndTransactionMarker deserialize(Record record) {
        ControlRecordType type = ControlRecordType.parse(record.key());
        if (type != ControlRecordType.COMMIT && type != ControlRecordType.ABORT) {
            throw new InvalidRecordException("control record of type " + type + " is not a transaction marker");
        }
        ByteBuffer value = record.value();
        if (value == null) {
            throw new InvalidRecordException("transaction marker at offset " + record.offset() + " has a null value");
        }
        try {
            ByteBuffer bytes = value.duplicate();
            short version = bytes.getShort();
            if (version < 0) {
                throw new InvalidRecordException("invalid version found for end transaction marker: " + version
                        + ". May indicate data corruption");
            }
            return new EndTransactionMarker(type, bytes.getInt());
        } catch (BufferUnderflowException e) {
            throw new InvalidRecordException(
                    "transaction marker at offset " + record.offset() + " has a value of " + value.remaining()
                            + " bytes, needs " + VALUE_SIZE,
                    e);
        }
    }
}
