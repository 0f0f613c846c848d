package io.krabka.kernel.record;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;

/**
 * The type of a control record, stored in its key as int16 version (0) and int16 type. Kafka reads unknown types
 * as {@link #UNKNOWN} so that newer control records are skipped rather than rejected.
 */
public enum ControlRecordType {
    /** A transaction aborted. */
    ABORT(0),
    /** A transaction committed. */
    COMMIT(1),
    /** KRaft: a new quorum leader. */
    LEADER_CHANGE(2),
    /** KRaft: the start of a snapshot. */
    SNAPSHOT_HEADER(3),
    /** KRaft: the end of a snapshot. */
    SNAPSHOT_FOOTER(4),
    /** KRaft: the kraft.version feature level. */
    KRAFT_VERSION(5),
    /** KRaft: the voter set. */
    KRAFT_VOTERS(6),
    /** A type this broker does not know. */
    UNKNOWN(-1);

    /** The version of the key schema written. */
    public static final short CURRENT_KEY_VERSION = 0;
    /** Bytes in a key: version and type. */
    public static final int KEY_SIZE = 4;

    private final short type;

    ControlRecordType(int type) {
        this.type = (short) type;
    }

    /** The type id. */
    public short type() {
        return type;
    }

    /** The record key that names this type: version 0, then the type id. */
    public ByteBuffer recordKey() {
        if (this == UNKNOWN) {
            throw new IllegalArgumentException("cannot write an UNKNOWN control record type");
        }
        return ByteBuffer.allocate(KEY_SIZE).putShort(0, CURRENT_KEY_VERSION).putShort(2, type);
    }

    /** The type with an id; {@link #UNKNOWN} for ids Kafka does not define. */
    public static ControlRecordType fromTypeId(short typeId) {
        for (ControlRecordType candidate : values()) {
            if (candidate.type == typeId && candidate != UNKNOWN) {
                return candidate;
            }
        }
        return UNKNOWN;
    }

    /**
     * The type a control record's key names. Versions above 0 are read as 0, whose fields they keep.
     *
     * @throws InvalidRecordException if the key is missing, short, or has a negative version
     */
    public static ControlRecordType parse(ByteBuffer key) {
        if (key == null) {
            throw new InvalidRecordException("control record has a null key");
        }
        try {
            ByteBuffer bytes = key.duplicate();
            short version = bytes.getShort();
            if (version < 0) {
                throw new InvalidRecordException(
                        "invalid version found for control record: " + version + ". May indicate data corruption");
            }
            return fromTypeId(bytes.getShort());
        } catch (BufferUnderflowException e) {
            throw new InvalidRecordException(
                    "control record key has " + key.remaining() + " bytes, needs " + KEY_SIZE, e);
        }
    }
}
