package io.krabka.kernel.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.format.ClusterId;
import io.krabka.kernel.format.FormatSpec;
import io.krabka.kernel.format.Formatter;
import io.krabka.kernel.format.InitialQuorum;
import io.krabka.spi.common.TopicPartition;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.RecordTooLargeException;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The broker's dynamic configs on a running broker, through the Admin client: each takes effect without a restart
 * (a produce request held to a new {@code message.max.bytes}, a topic's retention, the background threads, the
 * producer id expiry, the recovery threads), this broker's value wins over the cluster's, and all of them, and the
 * group configs, are in force again after a restart.
 */
class DynamicBrokerConfigIT {

    private static final ConfigResource CLUSTER = new ConfigResource(ConfigResource.Type.BROKER, "");
    private static final ConfigResource BROKER = new ConfigResource(ConfigResource.Type.BROKER, "1");
    private static final ConfigResource GROUP = new ConfigResource(ConfigResource.Type.GROUP, "payments");

    @TempDir
    Path root;

    private Broker broker;

    @AfterEach
    void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    @Test
    void dynamicConfigsTakeEffectWithoutARestartAndSurviveOne() throws Exception {
        Path dataDir = root.resolve("data");
        new Formatter(Clock.systemUTC())
                .format(new FormatSpec(
                        List.of(dataDir),
                        dataDir,
                        ClusterId.random(),
                        1,
                        Optional.empty(),
                        Optional.empty(),
                        List.of(),
                        new InitialQuorum.Standalone("127.0.0.1", 9093),
                        "CONTROLLER",
                        false));
        Map<String, String> props = new HashMap<>(Map.of(
                "node.id", "1",
                "process.roles", "broker,controller",
                "listeners", "PLAINTEXT://127.0.0.1:0,CONTROLLER://127.0.0.1:0",
                "log.dirs", dataDir.toString(),
                "krabka.health.listen.addr", "none",
                "log.retention.hours", "100"));
        broker = Broker.start(BrokerConfig.fromProps(props), new KrabkaServices());
        byte[] large = new byte[1_500_000];
        try (Admin admin = admin()) {
            admin.createTopics(List.of(new NewTopic("orders", 1, (short) 1)))
                    .all()
                    .get(1, TimeUnit.MINUTES);
            assertInstanceOf(RecordTooLargeException.class, produce(large), "message.max.bytes is 1048588");

            set(admin, CLUSTER, "message.max.bytes", "2000000");
            assertEquals(null, produce(large), "the cluster-wide default in force at once");
            set(admin, BROKER, "message.max.bytes", "1200000");
            assertInstanceOf(RecordTooLargeException.class, produce(large), "this broker's value wins");
            assertEquals(
                    "1200000 DYNAMIC_BROKER_CONFIG [DYNAMIC_BROKER_CONFIG:1200000, DYNAMIC_DEFAULT_BROKER_CONFIG:2000000,"
                            + " DEFAULT_CONFIG:1048588]",
                    describe(admin, BROKER, "message.max.bytes"));
            assertEquals(
                    "1200000 DYNAMIC_BROKER_CONFIG [DYNAMIC_BROKER_CONFIG:1200000, DYNAMIC_DEFAULT_BROKER_CONFIG:2000000,"
                            + " DEFAULT_CONFIG:1048588]",
                    describe(admin, new ConfigResource(ConfigResource.Type.TOPIC, "orders"), "max.message.bytes"));

            // A dynamic log.retention.ms wins over a static log.retention.hours.
            set(admin, CLUSTER, "log.retention.ms", "3600000");
            assertEquals(3_600_000L, log().config().retentionMs());

            set(admin, CLUSTER, "background.threads", "20");
            assertEquals(
                    "Invalid value org.apache.kafka.common.config.ConfigException: Dynamic thread count update "
                            + "validation failed for background.threads=41, value should not be greater than double "
                            + "the current value 20 for configuration Invalid dynamic configuration",
                    refusal(admin, CLUSTER, "background.threads", "41"));
            set(admin, BROKER, "num.recovery.threads.per.data.dir", "4");
            assertEquals(4, broker.logManager().numRecoveryThreadsPerDataDir());
            set(admin, CLUSTER, "producer.id.expiration.ms", "60000");
            assertEquals(
                    60_000, broker.logManager().producerStateManagerConfig().producerIdExpirationMs());
            set(admin, CLUSTER, "transaction.partition.verification.enable", "false");
            assertFalse(broker.logManager().producerStateManagerConfig().transactionVerificationEnabled());
            set(admin, BROKER, "log.cleaner.threads", "2");
            assertEquals(2, cleaner().currentConfig().numThreads());
            assertEquals(2, cleaner().cleanerCount(), "the cleaner's threads replaced");
            assertEquals(
                    "Invalid value org.apache.kafka.common.config.ConfigException: Log cleaner threads cannot be "
                            + "increased to more than double the current value 2 for configuration Invalid dynamic "
                            + "configuration",
                    refusal(admin, BROKER, "log.cleaner.threads", "5"));

            assertEquals("Cannot update these configs dynamically: [node.id]", refusal(admin, CLUSTER, "node.id", "2"));
            set(admin, BROKER, "num.io.threads", "16");
            assertEquals(
                    "Invalid value org.apache.kafka.common.config.ConfigException: Dynamic thread count update "
                            + "validation failed for num.io.threads=40, value should not be greater than double the "
                            + "current value 16 for configuration Invalid dynamic configuration",
                    refusal(admin, BROKER, "num.io.threads", "40"));
            assertEquals(
                    "Krabka cannot update these configs dynamically: [num.network.threads]; set them in"
                            + " server.properties and restart the broker",
                    refusal(admin, BROKER, "num.network.threads", "4"));

            set(admin, GROUP, "consumer.session.timeout.ms", "50000");
        }

        broker.close();
        broker = Broker.start(BrokerConfig.fromProps(props), new KrabkaServices());
        try (Admin admin = admin()) {
            assertInstanceOf(RecordTooLargeException.class, produce(large), "this broker's value after a restart");
            assertEquals(3_600_000L, log().config().retentionMs());
            assertEquals(4, broker.logManager().numRecoveryThreadsPerDataDir());
            assertEquals(
                    60_000, broker.logManager().producerStateManagerConfig().producerIdExpirationMs());
            assertFalse(broker.logManager().producerStateManagerConfig().transactionVerificationEnabled());
            assertEquals(2, cleaner().cleanerCount(), "the cleaner's threads as the dynamic config says");
            assertTrue(
                    refusal(admin, CLUSTER, "background.threads", "41").contains("double the current value 20"),
                    "the background threads resized again at start-up");
            assertEquals(
                    "50000 DYNAMIC_GROUP_CONFIG [DYNAMIC_GROUP_CONFIG:50000, DEFAULT_CONFIG:45000]",
                    describe(admin, GROUP, "consumer.session.timeout.ms"));

            admin.incrementalAlterConfigs(Map.of(
                            BROKER,
                            List.of(new AlterConfigOp(
                                    new ConfigEntry("message.max.bytes", null), AlterConfigOp.OpType.DELETE))))
                    .all()
                    .get(1, TimeUnit.MINUTES);
            assertEquals(null, produce(large), "the cluster-wide default once this broker's is deleted");
        }
    }

    private io.krabka.kernel.log.cleaner.LogCleaner cleaner() {
        return broker.logManager().cleaner().orElseThrow();
    }

    private io.krabka.kernel.log.UnifiedLog log() {
        return broker.logManager().getLog(new TopicPartition("orders", 0)).orElseThrow();
    }

    private Admin admin() {
        return Admin.create(Map.of(
                AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG,
                "127.0.0.1:" + broker.listenAddress().getPort()));
    }

    private static void set(Admin admin, ConfigResource resource, String key, String value) throws Exception {
        admin.incrementalAlterConfigs(Map.of(
                        resource, List.of(new AlterConfigOp(new ConfigEntry(key, value), AlterConfigOp.OpType.SET))))
                .all()
                .get(1, TimeUnit.MINUTES);
    }

    private static String refusal(Admin admin, ConfigResource resource, String key, String value) {
        ExecutionException refused = assertThrows(ExecutionException.class, () -> set(admin, resource, key, value));
        assertInstanceOf(InvalidRequestException.class, refused.getCause());
        return refused.getCause().getMessage();
    }

    private static String describe(Admin admin, ConfigResource resource, String key) throws Exception {
        ConfigEntry entry = admin.describeConfigs(List.of(resource), new DescribeConfigsOptions().includeSynonyms(true))
                .all()
                .get(1, TimeUnit.MINUTES)
                .get(resource)
                .get(key);
        Collection<String> synonyms = entry.synonyms().stream()
                .map(synonym -> synonym.source() + ":" + synonym.value())
                .toList();
        return entry.value() + " " + entry.source() + " " + synonyms;
    }

    /** Produces a record to {@code orders}: null when acknowledged, else why not. */
    private Throwable produce(byte[] value) throws InterruptedException {
        try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(
                Map.of(
                        ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
                        "127.0.0.1:" + broker.listenAddress().getPort(),
                        ProducerConfig.MAX_REQUEST_SIZE_CONFIG,
                        10_000_000,
                        ProducerConfig.RETRIES_CONFIG,
                        0),
                new ByteArraySerializer(),
                new ByteArraySerializer())) {
            producer.send(new ProducerRecord<>("orders", value)).get(1, TimeUnit.MINUTES);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        } catch (java.util.concurrent.TimeoutException e) {
            throw new AssertionError("no answer to a produce request", e);
        }
    }
}
