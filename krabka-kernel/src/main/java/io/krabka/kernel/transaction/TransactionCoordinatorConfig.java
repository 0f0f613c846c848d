package io.krabka.kernel.transaction;

import io.krabka.kernel.log.LogManagerConfig;
import io.krabka.kernel.log.config.ConfigValues;
import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.ConfigType;
import io.krabka.spi.plugin.ConfigValidator;
import java.util.List;
import java.util.Map;

/**
 * The transaction coordinator's settings, with Kafka's key names and defaults ({@code TransactionConfig},
 * {@code TransactionLogConfig}, {@code TransactionStateManagerConfig}); the replication factor and minimum ISR of
 * {@code __transaction_state} default to 1, a single node.
 *
 * @param transactionalIdExpirationMs             {@code transactional.id.expiration.ms}
 * @param transactionMaxTimeoutMs                 {@code transaction.max.timeout.ms}
 * @param transactionLogNumPartitions             {@code transaction.state.log.num.partitions}
 * @param transactionLogReplicationFactor         {@code transaction.state.log.replication.factor}
 * @param transactionLogSegmentBytes              {@code transaction.state.log.segment.bytes}
 * @param transactionLogLoadBufferSize            {@code transaction.state.log.load.buffer.size}
 * @param transactionLogMinInsyncReplicas         {@code transaction.state.log.min.isr}
 * @param abortTimedOutTransactionsIntervalMs     {@code transaction.abort.timed.out.transaction.cleanup.interval.ms}
 * @param removeExpiredTransactionalIdsIntervalMs {@code transaction.remove.expired.transaction.cleanup.interval.ms}
 */
public record TransactionCoordinatorConfig(
        int transactionalIdExpirationMs,
        int transactionMaxTimeoutMs,
        int transactionLogNumPartitions,
        short transactionLogReplicationFactor,
        int transactionLogSegmentBytes,
        int transactionLogLoadBufferSize,
        int transactionLogMinInsyncReplicas,
        int abortTimedOutTransactionsIntervalMs,
        int removeExpiredTransactionalIdsIntervalMs) {

    public static final ConfigKey TRANSACTIONAL_ID_EXPIRATION_MS = key(
            "transactional.id.expiration.ms",
            604_800_000,
            "How long a transactional id without a transaction under way is kept after its last change; then it is "
                    + "removed from __transaction_state.");
    public static final ConfigKey TRANSACTION_STATE_LOG_NUM_PARTITIONS = key(
            "transaction.state.log.num.partitions",
            50,
            "The partitions of __transaction_state, made when the first transactional producer starts; a "
                    + "transactional id's coordinator is the leader of partition abs(hash) % partitions.");
    public static final ConfigKey TRANSACTION_STATE_LOG_REPLICATION_FACTOR = key(
            "transaction.state.log.replication.factor",
            1,
            "The replication factor of __transaction_state (Kafka's default is 3; a single node has 1).");
    public static final ConfigKey TRANSACTION_STATE_LOG_SEGMENT_BYTES = key(
            "transaction.state.log.segment.bytes",
            104_857_600,
            "The segment size of __transaction_state, kept small so that it compacts and loads fast.");
    public static final ConfigKey TRANSACTION_STATE_LOG_LOAD_BUFFER_SIZE = key(
            "transaction.state.log.load.buffer.size",
            5_242_880,
            "How many bytes of __transaction_state are read at a time when a partition is loaded.");
    public static final ConfigKey TRANSACTION_STATE_LOG_MIN_ISR = key(
            "transaction.state.log.min.isr",
            1,
            "The min.insync.replicas of __transaction_state (Kafka's default is 2; a single node has 1).");
    public static final ConfigKey TRANSACTION_ABORT_TIMED_OUT_TRANSACTION_CLEANUP_INTERVAL_MS = key(
            "transaction.abort.timed.out.transaction.cleanup.interval.ms",
            10_000,
            "How often transactions open longer than their timeout are aborted (their producer fenced).");
    public static final ConfigKey TRANSACTION_REMOVE_EXPIRED_TRANSACTION_CLEANUP_INTERVAL_MS = key(
            "transaction.remove.expired.transaction.cleanup.interval.ms",
            3_600_000,
            "How often expired transactional ids are removed.");

    /** Every key the coordinator reads besides transaction.max.timeout.ms, the log manager's. */
    public static final List<ConfigKey> KEYS = List.of(
            TRANSACTIONAL_ID_EXPIRATION_MS,
            TRANSACTION_STATE_LOG_NUM_PARTITIONS,
            TRANSACTION_STATE_LOG_REPLICATION_FACTOR,
            TRANSACTION_STATE_LOG_SEGMENT_BYTES,
            TRANSACTION_STATE_LOG_LOAD_BUFFER_SIZE,
            TRANSACTION_STATE_LOG_MIN_ISR,
            TRANSACTION_ABORT_TIMED_OUT_TRANSACTION_CLEANUP_INTERVAL_MS,
            TRANSACTION_REMOVE_EXPIRED_TRANSACTION_CLEANUP_INTERVAL_MS);

    /** The defaults. */
    public static final TransactionCoordinatorConfig DEFAULTS = fromProps(Map.of());

    /**
     * The settings in broker properties, the defaults for those not set.
     *
     * @throws io.krabka.spi.plugin.ConfigException naming the key, for a value of the wrong type or range
     */
    public static TransactionCoordinatorConfig fromProps(Map<String, ?> props) {
        return new TransactionCoordinatorConfig(
                (Integer) ConfigValues.value(props, TRANSACTIONAL_ID_EXPIRATION_MS),
                (Integer) ConfigValues.value(props, LogManagerConfig.TRANSACTION_MAX_TIMEOUT_MS),
                (Integer) ConfigValues.value(props, TRANSACTION_STATE_LOG_NUM_PARTITIONS),
                ((Integer) ConfigValues.value(props, TRANSACTION_STATE_LOG_REPLICATION_FACTOR)).shortValue(),
                (Integer) ConfigValues.value(props, TRANSACTION_STATE_LOG_SEGMENT_BYTES),
                (Integer) ConfigValues.value(props, TRANSACTION_STATE_LOG_LOAD_BUFFER_SIZE),
                (Integer) ConfigValues.value(props, TRANSACTION_STATE_LOG_MIN_ISR),
                (Integer) ConfigValues.value(props, TRANSACTION_ABORT_TIMED_OUT_TRANSACTION_CLEANUP_INTERVAL_MS),
                (Integer) ConfigValues.value(props, TRANSACTION_REMOVE_EXPIRED_TRANSACTION_CLEANUP_INTERVAL_MS));
    }

    private static ConfigKey key(String name, int defaultValue, String documentation) {
        return ConfigKey.optional(name, ConfigType.INT, defaultValue, documentation)
                .withValidator(ConfigValidator.atLeast(1));
    }
}
