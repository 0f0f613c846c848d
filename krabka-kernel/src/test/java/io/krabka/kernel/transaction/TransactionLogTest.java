package io.krabka.kernel.transaction;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.krabka.kernel.coordinator.CoordinatorRecordException;
import io.krabka.spi.common.TopicPartition;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The records of {@code __transaction_state} against Kafka 4.4's own {@code TransactionLog}: keys and values byte for
 * byte where Kafka's bytes do not depend on the order of a hash set (one partition), and read both ways otherwise, at
 * each value version (0 at transaction version 0, 1 from version 1), for every state.
 */
class TransactionLogTest {

    private static final TopicPartition ORDERS_0 = new TopicPartition("orders", 0);

    @ParameterizedTest
    @ValueSource(strings = {"payments", "", "a-transactional-id-with-ünïcödé"})
    void keysAreKafkas(String transactionalId) {
        assertArrayEquals(
                org.apache.kafka.coordinator.transaction.TransactionLog.keyToBytes(transactionalId),
                TransactionLog.keyToBytes(transactionalId));
    }

    @ParameterizedTest
    @EnumSource(
            value = TransactionState.class,
            names = {"DEAD", "PREPARE_EPOCH_FENCE"},
            mode = EnumSource.Mode.EXCLUDE)
    void aValueWithOnePartitionIsKafkasByteForByteAtBothVersions(TransactionState state) {
        Set<TopicPartition> partitions = state == TransactionState.EMPTY ? Set.of() : Set.of(ORDERS_0);
        for (TransactionVersion level : TransactionVersion.values()) {
            TxnTransitMetadata ours = transit(state, partitions, level);
            assertArrayEquals(
                    org.apache.kafka.coordinator.transaction.TransactionLog.valueToBytes(kafka(ours), kafka(level)),
                    TransactionLog.valueToBytes(ours, level),
                    state + " at " + level);
        }
    }

    @ParameterizedTest
    @EnumSource(value = TransactionVersion.class)
    void manyPartitionsReadTheSameBothWays(TransactionVersion level) {
        Set<TopicPartition> partitions = new HashSet<>();
        for (String topic : new String[] {"orders", "payments", "z", "__consumer_offsets"}) {
            for (int partition = 0; partition < 7; partition++) {
                partitions.add(new TopicPartition(topic, partition * 3));
            }
        }
        TxnTransitMetadata ours = transit(TransactionState.PREPARE_COMMIT, partitions, level);
        byte[] key = TransactionLog.keyToBytes("payments");
        // Kafka reads ours.
        org.apache.kafka.coordinator.transaction.TransactionLog.TxnRecord read =
                (org.apache.kafka.coordinator.transaction.TransactionLog.TxnRecord)
                        org.apache.kafka.coordinator.transaction.TransactionLog.read(
                                ByteBuffer.wrap(key), ByteBuffer.wrap(TransactionLog.valueToBytes(ours, level)));
        assertEquals(ours, fromKafka(read.metadata(), level));
        // We read Kafka's.
        TransactionLog.Read ourRead = TransactionLog.read(
                ByteBuffer.wrap(key),
                ByteBuffer.wrap(org.apache.kafka.coordinator.transaction.TransactionLog.valueToBytes(
                        kafka(ours), kafka(level))));
        assertEquals(new TransactionLog.TxnRecord("payments", withoutLastEpoch(ours, level)), ourRead);
    }

    @ParameterizedTest
    @ValueSource(strings = {"payments", "x"})
    void aTombstoneRemovesTheId(String transactionalId) {
        assertEquals(
                new TransactionLog.Tombstone(transactionalId),
                TransactionLog.read(ByteBuffer.wrap(TransactionLog.keyToBytes(transactionalId)), null));
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 5, 20, 30})
    void aTruncatedOrUnknownRecordIsATypedError(int cut) {
        TxnTransitMetadata value = transit(TransactionState.ONGOING, Set.of(ORDERS_0), TransactionVersion.TV_2);
        byte[] bytes = TransactionLog.valueToBytes(value, TransactionVersion.TV_2);
        byte[] key = TransactionLog.keyToBytes("payments");
        assertThrows(
                CoordinatorRecordException.class,
                () -> TransactionLog.read(ByteBuffer.wrap(key), ByteBuffer.wrap(Arrays.copyOf(bytes, cut))));
        byte[] unknownVersion = bytes.clone();
        unknownVersion[1] = 9;
        CoordinatorRecordException unknown = assertThrows(
                CoordinatorRecordException.class,
                () -> TransactionLog.read(ByteBuffer.wrap(key), ByteBuffer.wrap(unknownVersion)));
        assertEquals("unknown value version 9 of payments", unknown.getMessage());
    }

    private static TxnTransitMetadata transit(
            TransactionState state, Set<TopicPartition> partitions, TransactionVersion level) {
        boolean v1 = level != TransactionVersion.TV_0;
        return new TxnTransitMetadata(
                4711L,
                v1 ? 4700L : -1L,
                v1 && state == TransactionState.PREPARE_COMMIT ? 4800L : -1L,
                (short) 17,
                (short) -1,
                60_000,
                state,
                partitions,
                state == TransactionState.EMPTY ? -1 : 1_700_000_000_000L,
                1_700_000_001_000L,
                v1 ? TransactionVersion.TV_2 : TransactionVersion.TV_0);
    }

    // What reading gives back: no last epoch (it is not written), and at value version 0 no tagged fields.
    private static TxnTransitMetadata withoutLastEpoch(TxnTransitMetadata value, TransactionVersion level) {
        boolean v1 = level != TransactionVersion.TV_0;
        return new TxnTransitMetadata(
                value.producerId(),
                v1 ? value.prevProducerId() : -1,
                v1 ? value.nextProducerId() : -1,
                value.producerEpoch(),
                (short) -1,
                value.txnTimeoutMs(),
                value.txnState(),
                value.topicPartitions(),
                value.txnStartTimestamp(),
                value.txnLastUpdateTimestamp(),
                v1 ? value.clientTransactionVersion() : TransactionVersion.TV_0);
    }

    private static TxnTransitMetadata fromKafka(
            org.apache.kafka.coordinator.transaction.TransactionMetadata read, TransactionVersion level) {
        return new TxnTransitMetadata(
                read.producerId(),
                read.prevProducerId(),
                level != TransactionVersion.TV_0 ? nextProducerId(read) : -1,
                read.producerEpoch(),
                read.lastProducerEpoch(),
                read.txnTimeoutMs(),
                TransactionState.fromId(read.state().id()),
                read.topicPartitions().stream()
                        .map(tp -> new TopicPartition(tp.topic(), tp.partition()))
                        .collect(Collectors.toSet()),
                read.txnStartTimestamp(),
                read.txnLastUpdateTimestamp(),
                TransactionVersion.fromFeatureLevel(
                        read.clientTransactionVersion().featureLevel()));
    }

    // Kafka's TransactionMetadata has no accessor of the next producer id: its transit carries it.
    private static long nextProducerId(org.apache.kafka.coordinator.transaction.TransactionMetadata read) {
        return read.prepareNoTransit().nextProducerId();
    }

    private static org.apache.kafka.coordinator.transaction.TxnTransitMetadata kafka(TxnTransitMetadata ours) {
        return new org.apache.kafka.coordinator.transaction.TxnTransitMetadata(
                ours.producerId(),
                ours.prevProducerId(),
                ours.nextProducerId(),
                ours.producerEpoch(),
                ours.lastProducerEpoch(),
                ours.txnTimeoutMs(),
                org.apache.kafka.coordinator.transaction.TransactionState.fromId(
                        ours.txnState().id()),
                ours.topicPartitions().stream()
                        .map(tp -> new org.apache.kafka.common.TopicPartition(tp.topic(), tp.partition()))
                        .collect(Collectors.toCollection(HashSet::new)),
                ours.txnStartTimestamp(),
                ours.txnLastUpdateTimestamp(),
                kafka(ours.clientTransactionVersion()));
    }

    private static org.apache.kafka.server.common.TransactionVersion kafka(TransactionVersion level) {
        return org.apache.kafka.server.common.TransactionVersion.fromFeatureLevel(level.featureLevel());
    }
}
