package io.krabka.kernel.transaction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.coordinator.CoordinatorLogWriter;
import io.krabka.kernel.coordinator.CoordinatorLogWriter.KeyValue;
import io.krabka.kernel.log.AbortedTxn;
import io.krabka.kernel.log.AppendOrigin;
import io.krabka.kernel.log.ProducerAppendInfo;
import io.krabka.kernel.log.TransactionResult;
import io.krabka.kernel.log.UnifiedLog;
import io.krabka.kernel.log.VerificationGuard;
import io.krabka.kernel.record.Compression;
import io.krabka.kernel.record.RecordBatchBuilder;
import io.krabka.kernel.record.TimestampType;
import io.krabka.kernel.transaction.TransactionCoordinator.EndTxnResult;
import io.krabka.kernel.transaction.TransactionCoordinator.InitProducerIdResult;
import io.krabka.spi.common.TopicPartition;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.kafka.common.message.DeleteTopicsRequestData;
import org.apache.kafka.common.message.DescribeTransactionsResponseData;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The transaction coordinator over real logs: transactions past their timeout aborted and their producer fenced, a
 * decision written before a crash completed when the partition loads again, expired transactional ids removed for
 * good, a partition whose topic went needing no marker, retries at transaction version 2 answered as done, and the
 * partition leaders' verifications answered as Kafka's.
 */
class TransactionCoordinatorTest {

    private static final String ID = "payments";
    private static final TopicPartition ORDERS_0 = new TopicPartition("orders", 0);

    @TempDir
    Path dir;

    private TransactionFixture fixture;

    @AfterEach
    void stop() throws Exception {
        if (fixture != null) {
            fixture.close();
        }
    }

    private TransactionFixture start(Map<String, String> settings) throws Exception {
        fixture = new TransactionFixture(dir, settings);
        fixture.createTopic("orders", 2);
        fixture.awaitCoordinator();
        return fixture;
    }

    @Test
    void aTransactionPastItsTimeoutIsAbortedAndItsProducerFenced() throws Exception {
        start(Map.of("transaction.abort.timed.out.transaction.cleanup.interval.ms", "20"));
        InitProducerIdResult producer = init(1_000);
        assertEquals(Errors.NONE, addPartitions(producer, TransactionVersion.TV_0, ORDERS_0));
        long first = produce(producer, ORDERS_0, TransactionSupportedOperation.DEFAULT_ERROR);

        fixture.time.sleep(1_001);
        TransactionFixture.await(() -> state().equals("CompleteAbort"), "the timed-out transaction is aborted");
        DescribeTransactionsResponseData.TransactionState described = describe();
        assertEquals(producer.producerEpoch() + 1, described.producerEpoch(), "the abort fenced the producer");
        UnifiedLog orders = fixture.log(ORDERS_0);
        assertEquals(orders.logEndOffset(), orders.lastStableOffset(), "the abort marker ended the transaction");
        assertEquals(
                List.of(new AbortedTxn(producer.producerId(), first, first + 1, orders.lastStableOffset())),
                orders.collectAbortedTransactions(0, orders.logEndOffset()));
        EndTxnResult late = fixture.coordinator.endTransaction(
                ID, producer.producerId(), producer.producerEpoch(), TransactionResult.COMMIT, TransactionVersion.TV_0);
        assertEquals(Errors.PRODUCER_FENCED, late.error());
    }

    @Test
    void aDecisionWrittenBeforeACrashIsCompletedWhenThePartitionLoads() throws Exception {
        start(Map.of());
        InitProducerIdResult producer = init(60_000);
        assertEquals(Errors.NONE, addPartitions(producer, TransactionVersion.TV_0, ORDERS_0));
        produce(producer, ORDERS_0, TransactionSupportedOperation.DEFAULT_ERROR);
        DescribeTransactionsResponseData.TransactionState ongoing = describe();
        // The coordinator crashed right after writing PrepareCommit: no marker was written.
        fixture.coordinator.close();
        new CoordinatorLogWriter(fixture.logManager, fixture.time)
                .append(
                        new TopicPartition(TransactionStateTopic.NAME, 0),
                        0,
                        Compression.NONE,
                        List.of(new KeyValue(
                                TransactionLog.keyToBytes(ID),
                                TransactionLog.valueToBytes(
                                        new TxnTransitMetadata(
                                                producer.producerId(),
                                                -1,
                                                -1,
                                                producer.producerEpoch(),
                                                (short) -1,
                                                60_000,
                                                TransactionState.PREPARE_COMMIT,
                                                Set.of(ORDERS_0),
                                                ongoing.transactionStartTimeMs(),
                                                fixture.time.millis(),
                                                TransactionVersion.TV_0),
                                        TransactionVersion.TV_2))));
        UnifiedLog orders = fixture.log(ORDERS_0);
        assertTrue(orders.lastStableOffset() < orders.logEndOffset(), "the transaction is open in the partition");

        fixture.restartCoordinators();
        fixture.awaitCoordinator();
        TransactionFixture.await(() -> state().equals("CompleteCommit"), "the commit is completed after the load");
        assertEquals(orders.logEndOffset(), orders.lastStableOffset(), "the commit marker was written");
        assertEquals(List.of(), orders.collectAbortedTransactions(0, orders.logEndOffset()));
    }

    @Test
    void anExpiredTransactionalIdIsRemovedForGood() throws Exception {
        start(Map.of(
                "transactional.id.expiration.ms", "1000",
                "transaction.remove.expired.transaction.cleanup.interval.ms", "20"));
        init(60_000);
        fixture.time.sleep(1_001);
        TransactionFixture.await(
                () -> describe().errorCode() == Errors.TRANSACTIONAL_ID_NOT_FOUND.code(), "the id expires");
        fixture.restartCoordinators();
        fixture.awaitCoordinator();
        assertEquals(
                Errors.TRANSACTIONAL_ID_NOT_FOUND.code(),
                describe().errorCode(),
                "a tombstone removed it from __transaction_state");
    }

    @Test
    void aPartitionWhoseTopicIsGoneNeedsNoMarker() throws Exception {
        start(Map.of());
        fixture.createTopic("gone", 1);
        InitProducerIdResult producer = init(60_000);
        assertEquals(
                Errors.NONE, addPartitions(producer, TransactionVersion.TV_0, ORDERS_0, new TopicPartition("gone", 0)));
        fixture.controller
                .deleteTopics(new DeleteTopicsRequestData().setTopicNames(List.of("gone")))
                .join();
        EndTxnResult commit = fixture.coordinator.endTransaction(
                ID, producer.producerId(), producer.producerEpoch(), TransactionResult.COMMIT, TransactionVersion.TV_0);
        assertEquals(Errors.NONE, commit.error());
        assertEquals("CompleteCommit", state());
    }

    @Test
    void retriesAtTransactionVersion2AreAnsweredAsDoneAndAnEmptyAbortBumpsTheEpoch() throws Exception {
        start(Map.of());
        InitProducerIdResult producer = init(60_000);
        assertEquals(Errors.NONE, addPartitions(producer, TransactionVersion.TV_2, ORDERS_0));
        EndTxnResult commit = fixture.coordinator.endTransaction(
                ID, producer.producerId(), producer.producerEpoch(), TransactionResult.COMMIT, TransactionVersion.TV_2);
        assertEquals(
                new EndTxnResult(Errors.NONE, producer.producerId(), (short) (producer.producerEpoch() + 1)), commit);
        EndTxnResult retry = fixture.coordinator.endTransaction(
                ID, producer.producerId(), producer.producerEpoch(), TransactionResult.COMMIT, TransactionVersion.TV_2);
        assertEquals(commit, retry, "a retry carries the epoch before the bump");
        EndTxnResult emptyAbort = fixture.coordinator.endTransaction(
                ID, commit.producerId(), commit.producerEpoch(), TransactionResult.ABORT, TransactionVersion.TV_2);
        assertEquals(
                new EndTxnResult(Errors.NONE, producer.producerId(), (short) (commit.producerEpoch() + 1)), emptyAbort);
        assertEquals("CompleteAbort", state());
        EndTxnResult fenced = fixture.coordinator.endTransaction(
                ID, producer.producerId(), producer.producerEpoch(), TransactionResult.ABORT, TransactionVersion.TV_2);
        assertEquals(Errors.PRODUCER_FENCED, fenced.error());
    }

    @Test
    void verificationsAreAnsweredAsKafkasPartitionLeadersAnswerThem() throws Exception {
        start(Map.of());
        assertEquals(
                Map.of(ORDERS_0, Errors.INVALID_PRODUCER_ID_MAPPING),
                fixture.coordinator.verifyPartitions("nobody", 1, (short) 0, Set.of(ORDERS_0)));
        InitProducerIdResult producer = init(60_000);
        TopicPartition other = new TopicPartition("orders", 1);
        assertEquals(Errors.NONE, addPartitions(producer, TransactionVersion.TV_0, ORDERS_0));
        assertEquals(
                Map.of(ORDERS_0, Errors.NONE, other, Errors.TRANSACTION_ABORTABLE),
                fixture.coordinator.verifyPartitions(
                        ID, producer.producerId(), producer.producerEpoch(), Set.of(ORDERS_0, other)));
        assertEquals(
                Map.of(other, Errors.INVALID_TXN_STATE),
                fixture.coordinator.verifyOrAddPartitions(
                        ID,
                        producer.producerId(),
                        producer.producerEpoch(),
                        Set.of(other),
                        TransactionSupportedOperation.DEFAULT_ERROR),
                "a client before TRANSACTION_ABORTABLE gets INVALID_TXN_STATE");
        assertEquals(
                Map.of(other, Errors.INVALID_PRODUCER_EPOCH),
                fixture.coordinator.verifyOrAddPartitions(
                        ID,
                        producer.producerId(),
                        (short) (producer.producerEpoch() + 3),
                        Set.of(other),
                        TransactionSupportedOperation.GENERIC_ERROR_SUPPORTED),
                "PRODUCER_FENCED reaches the producer as INVALID_PRODUCER_EPOCH");
    }

    private InitProducerIdResult init(int timeoutMs) {
        InitProducerIdResult result = fixture.coordinator.initProducerId(ID, timeoutMs, Optional.empty());
        assertEquals(Errors.NONE, result.error());
        return result;
    }

    private Errors addPartitions(InitProducerIdResult producer, TransactionVersion version, TopicPartition... added) {
        return fixture.coordinator.addPartitions(
                ID, producer.producerId(), producer.producerEpoch(), Set.of(added), version);
    }

    // A transactional batch as the produce path appends it: verified first. Its offset.
    private long produce(InitProducerIdResult producer, TopicPartition partition, TransactionSupportedOperation op) {
        VerificationGuard guard = fixture.replicaManager.maybeStartTransactionVerification(
                partition, producer.producerId(), producer.producerEpoch(), op.supportsEpochBump());
        assertEquals(
                Map.of(partition, Errors.NONE),
                fixture.coordinator.verifyOrAddPartitions(
                        ID, producer.producerId(), producer.producerEpoch(), Set.of(partition), op));
        return fixture.replicaManager
                .appendRecords(
                        (short) -1,
                        false,
                        AppendOrigin.CLIENT,
                        Map.of(
                                partition,
                                new RecordBatchBuilder(Compression.NONE, TimestampType.CREATE_TIME, 0)
                                        .producer(producer.producerId(), producer.producerEpoch(), 0)
                                        .transactional(true)
                                        .append(fixture.time.millis(), null, "x".getBytes(StandardCharsets.UTF_8))
                                        .build()),
                        ProducerAppendInfo.TV_UNKNOWN,
                        Map.of(partition, guard))
                .get(partition)
                .baseOffset();
    }

    private DescribeTransactionsResponseData.TransactionState describe() {
        return fixture.coordinator.describeTransaction(ID);
    }

    private String state() {
        return describe().transactionState();
    }
}
