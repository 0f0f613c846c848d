package io.krabka.kernel.transaction;

import io.krabka.kernel.coordinator.CoordinatorRecordException;
import io.krabka.kernel.coordinator.RecordFields;
import io.krabka.spi.common.TopicPartition;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.protocol.Readable;
import org.apache.kafka.common.protocol.Writable;

/**
 * The records of {@code __transaction_state} in Kafka's format ({@code TransactionLog}, {@code TransactionLogKey} v0
 * and {@code TransactionLogValue} v0-1): the key is the record type 0 (int16) then the transactional id; the value is
 * its version (int16) then producer id, epoch, timeout, state id, the partitions by topic (null in state Empty), the
 * last update and start times; version 1 is flexible, with the previous and next producer ids (tags 0 and 1), the
 * client's transaction version (tag 2) and the next producer epoch (tag 3) as tagged fields. A tombstone (no value)
 * removes an expired transactional id. Partitions are written by topic, then partition, in order.
 */
public final class TransactionLog {

    /** The record type of a transaction's key: Kafka's {@code CoordinatorRecordType.TRANSACTION_LOG}. */
    static final short RECORD_TYPE = 0;
    /** The newest value version. */
    static final short HIGHEST_VALUE_VERSION = 1;

    private static final int TAG_PREVIOUS_PRODUCER_ID = 0;
    private static final int TAG_NEXT_PRODUCER_ID = 1;
    private static final int TAG_CLIENT_TRANSACTION_VERSION = 2;

    private TransactionLog() {}

    /** A record read back: a transactional id's state, or its removal. */
    public sealed interface Read {
        /** The transactional id. */
        String transactionalId();
    }

    /** A transactional id's state. */
    public record TxnRecord(String transactionalId, TxnTransitMetadata value) implements Read {}

    /** The removal of an expired transactional id. */
    public record Tombstone(String transactionalId) implements Read {}

    /** The key of a transactional id's records. */
    public static byte[] keyToBytes(String transactionalId) {
        return RecordFields.bytes(out -> {
            out.writeShort(RECORD_TYPE);
            RecordFields.writeString(out, transactionalId, false);
        });
    }

    /**
     * The value of a state, at the version {@code level} writes.
     *
     * @throws IllegalStateException if an Empty state has partitions
     */
    public static byte[] valueToBytes(TxnTransitMetadata value, TransactionVersion level) {
        if (value.txnState() == TransactionState.EMPTY
                && !value.topicPartitions().isEmpty()) {
            throw new IllegalStateException("Transaction is not expected to have any partitions since its state is "
                    + value.txnState() + ": " + value);
        }
        short version = level.transactionLogValueVersion();
        return RecordFields.bytes(out -> {
            out.writeShort(version);
            writeValue(out, value, version);
        });
    }

    private static void writeValue(Writable out, TxnTransitMetadata value, short version) {
        boolean flexible = version >= 1;
        out.writeLong(value.producerId());
        out.writeShort(value.producerEpoch());
        out.writeInt(value.txnTimeoutMs());
        out.writeByte(value.txnState().id());
        if (value.txnState() == TransactionState.EMPTY) {
            if (flexible) {
                out.writeUnsignedVarint(0);
            } else {
                out.writeInt(-1);
            }
        } else {
            Map<String, List<Integer>> byTopic = new TreeMap<>();
            for (TopicPartition partition : value.topicPartitions()) {
                byTopic.computeIfAbsent(partition.topic(), topic -> new ArrayList<>())
                        .add(partition.partition());
            }
            RecordFields.writeArrayLength(out, byTopic.size(), flexible);
            byTopic.forEach((topic, partitions) -> {
                RecordFields.writeString(out, topic, flexible);
                RecordFields.writeArrayLength(out, partitions.size(), flexible);
                partitions.stream().sorted().forEach(out::writeInt);
                if (flexible) {
                    out.writeUnsignedVarint(0);
                }
            });
        }
        out.writeLong(value.txnLastUpdateTimestamp());
        out.writeLong(value.txnStartTimestamp());
        if (flexible) {
            writeTaggedFields(out, value);
        }
    }

    // Tagged fields are written in tag order, each only when it differs from its default.
    private static void writeTaggedFields(Writable out, TxnTransitMetadata value) {
        boolean previous = value.prevProducerId() != TransactionMetadata.NO_PRODUCER_ID;
        boolean next = value.nextProducerId() != TransactionMetadata.NO_PRODUCER_ID;
        boolean clientVersion = value.clientTransactionVersion().featureLevel() != 0;
        out.writeUnsignedVarint((previous ? 1 : 0) + (next ? 1 : 0) + (clientVersion ? 1 : 0));
        if (previous) {
            out.writeUnsignedVarint(TAG_PREVIOUS_PRODUCER_ID);
            out.writeUnsignedVarint(8);
            out.writeLong(value.prevProducerId());
        }
        if (next) {
            out.writeUnsignedVarint(TAG_NEXT_PRODUCER_ID);
            out.writeUnsignedVarint(8);
            out.writeLong(value.nextProducerId());
        }
        if (clientVersion) {
            out.writeUnsignedVarint(TAG_CLIENT_TRANSACTION_VERSION);
            out.writeUnsignedVarint(2);
            out.writeShort(value.clientTransactionVersion().featureLevel());
        }
    }

    /**
     * Reads a record.
     *
     * @param value the value, or null for a tombstone
     * @throws CoordinatorRecordException if the key's type or the value's version is unknown or the bytes do not
     *                                    decode
     */
    public static Read read(ByteBuffer key, ByteBuffer value) {
        if (key == null) {
            throw new CoordinatorRecordException("a record of __transaction_state without a key");
        }
        try {
            ByteBufferAccessor keyIn = new ByteBufferAccessor(key.duplicate());
            short type = keyIn.readShort();
            if (type != RECORD_TYPE) {
                throw new CoordinatorRecordException("unknown key version " + type + " in __transaction_state");
            }
            String transactionalId = RecordFields.readString(keyIn, false, false, "transactional_id");
            if (keyIn.remaining() != 0) {
                throw new CoordinatorRecordException(
                        keyIn.remaining() + " bytes left after the key of " + transactionalId);
            }
            if (value == null) {
                return new Tombstone(transactionalId);
            }
            ByteBufferAccessor in = new ByteBufferAccessor(value.duplicate());
            short version = in.readShort();
            if (version < 0 || version > HIGHEST_VALUE_VERSION) {
                throw new CoordinatorRecordException("unknown value version " + version + " of " + transactionalId);
            }
            TxnTransitMetadata read = readValue(in, version);
            if (in.remaining() != 0) {
                throw new CoordinatorRecordException(
                        in.remaining() + " bytes left after the value of " + transactionalId);
            }
            return new TxnRecord(transactionalId, read);
        } catch (BufferUnderflowException | IllegalArgumentException e) {
            throw new CoordinatorRecordException("a truncated or malformed record of __transaction_state: " + e);
        }
    }

    private static TxnTransitMetadata readValue(Readable in, short version) {
        boolean flexible = version >= 1;
        long producerId = in.readLong();
        short producerEpoch = in.readShort();
        int timeoutMs = in.readInt();
        TransactionState state = TransactionState.fromId(in.readByte());
        Set<TopicPartition> partitions = new HashSet<>();
        int topics = flexible ? in.readUnsignedVarint() - 1 : in.readInt();
        for (int i = 0; i < topics; i++) {
            String topic = RecordFields.readString(in, flexible, false, "topic");
            int count = RecordFields.readArrayLength(in, flexible, "partition_ids");
            for (int j = 0; j < count; j++) {
                partitions.add(new TopicPartition(topic, in.readInt()));
            }
            if (flexible) {
                RecordFields.readTaggedFields(in, (tag, size, tagged) -> false);
            }
        }
        long lastUpdate = in.readLong();
        long start = in.readLong();
        long[] producerIds = {TransactionMetadata.NO_PRODUCER_ID, TransactionMetadata.NO_PRODUCER_ID};
        short[] clientVersion = {0};
        if (flexible) {
            RecordFields.readTaggedFields(in, (tag, size, tagged) -> switch (tag) {
                case TAG_PREVIOUS_PRODUCER_ID -> {
                    producerIds[0] = tagged.readLong();
                    yield true;
                }
                case TAG_NEXT_PRODUCER_ID -> {
                    producerIds[1] = tagged.readLong();
                    yield true;
                }
                case TAG_CLIENT_TRANSACTION_VERSION -> {
                    clientVersion[0] = tagged.readShort();
                    yield true;
                }
                // The next producer epoch (tag 3) is never written by Kafka 4.4: skipped as an unknown tag is.
                default -> false;
            });
        }
        // Kafka ignores the partitions of an Empty state.
        return new TxnTransitMetadata(
                producerId,
                producerIds[0],
                producerIds[1],
                producerEpoch,
                TransactionMetadata.NO_PRODUCER_EPOCH,
                timeoutMs,
                state,
                state == TransactionState.EMPTY ? Set.of() : partitions,
                start,
                lastUpdate,
                TransactionVersion.fromFeatureLevel(clientVersion[0]));
    }
}
