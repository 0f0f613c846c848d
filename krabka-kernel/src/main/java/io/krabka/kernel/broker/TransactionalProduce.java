package io.krabka.kernel.broker;

import io.krabka.kernel.log.VerificationGuard;
import io.krabka.kernel.replica.ProducePartitionResult;
import io.krabka.kernel.replica.ReplicaManager;
import io.krabka.kernel.transaction.TransactionCoordinator;
import io.krabka.kernel.transaction.TransactionSupportedOperation;
import io.krabka.spi.common.TopicPartition;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.protocol.Errors;

/**
 * The check of a Produce request's transactional batches before they are appended (KIP-890, Kafka's
 * {@code ReplicaManager.handleProduceAppend}): each partition where the producer has no transaction open yet begins a
 * verification, and the transaction coordinator adds the partition to the transaction (transaction version 2) or
 * verifies it is there. A partition that fails is answered as Kafka's leader answers it: INVALID_TXN_STATE "Partition
 * was not added to the transaction", and the coordinator's passing errors as NOT_ENOUGH_REPLICAS, which every client
 * retries.
 */
final class TransactionalProduce {

    private final ReplicaManager replicaManager;
    private final TransactionCoordinator coordinator;

    TransactionalProduce(ReplicaManager replicaManager, TransactionCoordinator coordinator) {
        this.replicaManager = Objects.requireNonNull(replicaManager, "replicaManager");
        this.coordinator = Objects.requireNonNull(coordinator, "coordinator");
    }

    /**
     * The verifications of a request's transactional partitions, and the partitions refused.
     *
     * @param guards  takes each verified partition's guard, to append with
     * @param refused takes each refused partition's answer
     */
    void verify(
            String transactionalId,
            long producerId,
            short producerEpoch,
            Iterable<TopicPartition> partitions,
            short produceVersion,
            Map<TopicPartition, VerificationGuard> guards,
            Map<TopicPartition, ProducePartitionResult> refused) {
        TransactionSupportedOperation operation = TransactionSupportedOperation.forProduce(produceVersion);
        Map<TopicPartition, VerificationGuard> started = new HashMap<>();
        for (TopicPartition partition : partitions) {
            try {
                VerificationGuard guard = replicaManager.maybeStartTransactionVerification(
                        partition, producerId, producerEpoch, operation.supportsEpochBump());
                if (guard != VerificationGuard.SENTINEL) {
                    started.put(partition, guard);
                }
            } catch (ApiException e) {
                // Kafka answers with the error alone, its default message.
                Errors error = Errors.forException(e);
                refused.put(partition, ProducePartitionResult.failed(error, error.message()));
            }
        }
        // Without a transactional id the batches cannot be verified: the log refuses them.
        if (started.isEmpty() || transactionalId == null) {
            return;
        }
        coordinator
                .verifyOrAddPartitions(transactionalId, producerId, producerEpoch, started.keySet(), operation)
                .forEach((partition, error) -> {
                    if (error == Errors.NONE) {
                        guards.put(partition, started.get(partition));
                    } else {
                        refused.put(partition, refusal(error));
                    }
                });
    }

    private static ProducePartitionResult refusal(Errors error) {
        return switch (error) {
            case INVALID_TXN_STATE ->
                ProducePartitionResult.failed(error, "Partition was not added to the transaction");
            // Passing errors older clients may not retry: NOT_ENOUGH_REPLICAS makes every client retry, without a
            // metadata refresh.
            case CONCURRENT_TRANSACTIONS,
                    NETWORK_EXCEPTION,
                    COORDINATOR_LOAD_IN_PROGRESS,
                    COORDINATOR_NOT_AVAILABLE,
                    NOT_COORDINATOR ->
                ProducePartitionResult.failed(
                        Errors.NOT_ENOUGH_REPLICAS,
                        "Unable to verify the partition has been added to the transaction. Underlying error: " + error);
            default -> ProducePartitionResult.failed(error, error.message());
        };
    }
}
