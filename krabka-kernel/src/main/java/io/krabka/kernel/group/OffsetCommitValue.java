package io.krabka.kernel.group;

import io.krabka.kernel.coordinator.CoordinatorRecordException;
import io.krabka.kernel.coordinator.RecordFields;
import io.krabka.spi.common.Uuid;
import java.util.Objects;
import org.apache.kafka.common.protocol.Readable;
import org.apache.kafka.common.protocol.Writable;

/**
 * A committed offset (Kafka's {@code OffsetCommitValue}, versions 0-4). Fields by version: {@code offset} (int64);
 * {@code leader_epoch} (int32, v3+); {@code metadata} (string); {@code commit_timestamp} (int64);
 * {@code expire_timestamp} (int64, v1 only); v4 is flexible (compact string) with {@code topic_id} as tag 0. Kafka
 * 4.4 writes v4, or v1 when the commit asked for a retention time (OffsetCommit v2-v4).
 *
 * @param offset          the committed offset
 * @param leaderEpoch     the leader epoch of the record before it, or -1
 * @param metadata        the client's metadata string
 * @param commitTimestamp when it was committed
 * @param expireTimestamp when it expires, or -1 to follow {@code offsets.retention.minutes}
 * @param topicId         the topic's id, or {@link Uuid#ZERO_UUID}
 */
public record OffsetCommitValue(
        long offset, int leaderEpoch, String metadata, long commitTimestamp, long expireTimestamp, Uuid topicId) {

    /** The newest version. */
    public static final short HIGHEST_VERSION = 4;

    /** Checks the strings are present. */
    public OffsetCommitValue {
        Objects.requireNonNull(metadata, "metadata");
        Objects.requireNonNull(topicId, "topicId");
    }

    /** The version Kafka 4.4 writes this value at ({@code GroupCoordinatorRecordHelpers}). */
    public short writeVersion() {
        return expireTimestamp >= 0 ? (short) 1 : HIGHEST_VERSION;
    }

    void write(Writable out, short version) {
        checkVersion(version);
        if (version != 1 && expireTimestamp >= 0) {
            throw new IllegalArgumentException("an expire timestamp is written at version 1 only, not " + version);
        }
        boolean flexible = version >= 4;
        out.writeLong(offset);
        if (version >= 3) {
            out.writeInt(leaderEpoch);
        }
        RecordFields.writeString(out, metadata, flexible);
        out.writeLong(commitTimestamp);
        if (version == 1) {
            out.writeLong(expireTimestamp);
        }
        if (flexible) {
            if (topicId.equals(Uuid.ZERO_UUID)) {
                out.writeUnsignedVarint(0);
            } else {
                out.writeUnsignedVarint(1);
                out.writeUnsignedVarint(0);
                out.writeUnsignedVarint(16);
                out.writeLong(topicId.mostSignificantBits());
                out.writeLong(topicId.leastSignificantBits());
            }
        }
    }

    static OffsetCommitValue read(Readable in, short version) {
        checkVersion(version);
        boolean flexible = version >= 4;
        long offset = in.readLong();
        int leaderEpoch = version >= 3 ? in.readInt() : -1;
        String metadata = RecordFields.readString(in, flexible, false, "metadata");
        long commitTimestamp = in.readLong();
        long expireTimestamp = version == 1 ? in.readLong() : -1;
        Uuid[] topicId = {Uuid.ZERO_UUID};
        if (flexible) {
            RecordFields.readTaggedFields(in, (tag, size, tagged) -> {
                if (tag != 0) {
                    return false;
                }
                if (size != 16) {
                    throw new CoordinatorRecordException("topic_id of " + size + " bytes");
                }
                topicId[0] = new Uuid(tagged.readLong(), tagged.readLong());
                return true;
            });
        }
        return new OffsetCommitValue(offset, leaderEpoch, metadata, commitTimestamp, expireTimestamp, topicId[0]);
    }

    private static void checkVersion(short version) {
        if (version < 0 || version > HIGHEST_VERSION) {
            throw new CoordinatorRecordException("OffsetCommitValue has no version " + version);
        }
    }
}
