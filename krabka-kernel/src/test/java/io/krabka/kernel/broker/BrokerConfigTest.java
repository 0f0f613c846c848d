package io.krabka.kernel.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.network.SocketServerConfig;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** BrokerConfig: Kafka's keys and defaults, the precedence of synonyms and layers, one-line errors naming the key. */
class BrokerConfigTest {

    private static Map<String, String> minimal(String... keyValues) {
        Map<String, String> props = new HashMap<>(Map.of("node.id", "1", "process.roles", "broker,controller"));
        for (int i = 0; i < keyValues.length; i += 2) {
            props.put(keyValues[i], keyValues[i + 1]);
        }
        return props;
    }

    private static BrokerConfig config(String... keyValues) {
        return BrokerConfig.fromProps(minimal(keyValues));
    }

    @Test
    void kafkasDefaults() {
        BrokerConfig config = config();
        assertEquals(1, config.nodeId());
        assertEquals(Set.of("broker", "controller"), config.processRoles());
        assertEquals(new Endpoint("PLAINTEXT", "", 9092), config.listener());
        assertEquals(config.listener(), config.advertisedListener());
        assertEquals(Optional.empty(), config.controllerListener());
        assertEquals(List.of(Path.of("/tmp/kafka-logs")), config.logDirs());
        assertEquals(Path.of("/tmp/kafka-logs"), config.metadataLogDir());
        assertEquals(Optional.of(new InetSocketAddress("127.0.0.1", 9405)), config.healthListenAddress());
        assertEquals(1, config.numPartitions());
        assertEquals(1, config.defaultReplicationFactor());
        assertTrue(config.autoCreateTopicsEnable());
        assertTrue(config.deleteTopicEnable());
        assertEquals(1, config.minInSyncReplicas());
        assertEquals(1024 * 1024 + 12, config.messageMaxBytes());
        assertEquals(50, config.offsetsTopicNumPartitions());
        assertEquals(1, config.offsetsTopicReplicationFactor());
        assertEquals(104_857_600, config.offsetsTopicSegmentBytes());
        assertEquals(Duration.ofDays(7), config.offsetsRetention());
        assertEquals(6_000, config.groupMinSessionTimeoutMs());
        assertEquals(1_800_000, config.groupMaxSessionTimeoutMs());
        assertEquals(3_000, config.groupInitialRebalanceDelayMs());
        assertEquals(1_000, config.maxIncrementalFetchSessionCacheSlots());
        assertEquals(57_671_680, config.fetchMaxBytes());
        assertFalse(config.remoteLogStorageSystemEnable());
        assertEquals(10, config.backgroundThreads());
        assertEquals(TimeUnit.DAYS.toMillis(7), config.logConfigDefaults().retentionMs());
        assertEquals(1024 * 1024 * 1024, config.logConfigDefaults().segmentBytes());
        assertEquals(Set.of(), config.unknownKeys());

        SocketServerConfig socket = config.socketServerConfig();
        assertEquals(new InetSocketAddress(9092), socket.listenAddress());
        assertEquals(3, socket.numNetworkThreads());
        assertEquals(104_857_600, socket.socketRequestMaxBytes());
        assertEquals(500, socket.queuedMaxRequests());
        assertEquals(-1, socket.queuedMaxRequestBytes());
        assertEquals(Integer.MAX_VALUE, socket.maxConnections());
        assertEquals(Duration.ofMinutes(10), socket.connectionsMaxIdle());
        assertEquals(102_400, socket.socketSendBufferBytes());
        assertEquals(102_400, socket.socketReceiveBufferBytes());
    }

    @Test
    void everyPartTakesItsKeys() {
        BrokerConfig config = config(
                "node.id",
                "7",
                "listeners",
                "PLAINTEXT://127.0.0.1:19092,CONTROLLER://127.0.0.1:19093",
                "advertised.listeners",
                "PLAINTEXT://broker.example:9092",
                "log.dirs",
                "/data/a, /data/b",
                "metadata.log.dir",
                "/data/meta",
                "num.network.threads",
                "5",
                "socket.request.max.bytes",
                "1000",
                "queued.max.requests",
                "7",
                "queued.max.request.bytes",
                "4096",
                "max.connections",
                "9",
                "connections.max.idle.ms",
                "1234",
                "socket.send.buffer.bytes",
                "-1",
                "socket.receive.buffer.bytes",
                "65536",
                "log.initial.task.delay.ms",
                "0",
                "num.recovery.threads.per.data.dir",
                "4",
                "message.max.bytes",
                "2000000",
                "min.insync.replicas",
                "2",
                "log.segment.bytes",
                "2097152",
                "offsets.topic.num.partitions",
                "3",
                "group.max.size",
                "10",
                "krabka.health.listen.addr",
                "none");
        assertEquals(new Endpoint("PLAINTEXT", "127.0.0.1", 19092), config.listener());
        assertEquals(new Endpoint("PLAINTEXT", "broker.example", 9092), config.advertisedListener());
        assertEquals(Optional.of(new Endpoint("CONTROLLER", "127.0.0.1", 19093)), config.controllerListener());
        assertEquals(List.of(Path.of("/data/a"), Path.of("/data/b")), config.logDirs());
        assertEquals(List.of(Path.of("/data/a"), Path.of("/data/b"), Path.of("/data/meta")), config.allLogDirs());
        assertEquals(Optional.empty(), config.healthListenAddress());
        assertEquals(7, config.logManagerConfig().nodeId());
        assertEquals(0, config.logManagerConfig().initialTaskDelayMs());
        assertEquals(4, config.logManagerConfig().numRecoveryThreadsPerDataDir());
        assertEquals(2_000_000, config.messageMaxBytes());
        assertEquals(2_000_000, config.logConfigDefaults().maxMessageBytes());
        assertEquals(2, config.minInSyncReplicas());
        assertEquals(2_097_152, config.logConfigDefaults().segmentBytes());
        assertEquals(3, config.offsetsTopicNumPartitions());
        assertEquals(10, config.groupMaxSize());
        assertEquals(
                new SocketServerConfig(
                        new InetSocketAddress("127.0.0.1", 19092),
                        io.krabka.kernel.network.Transport.NIO,
                        5,
                        1000,
                        7,
                        4096,
                        5,
                        1 << 20,
                        Duration.ofMillis(1234),
                        9,
                        Duration.ofSeconds(30),
                        -1,
                        65536),
                config.socketServerConfig());
        // A topic's own settings win over the broker's.
        assertEquals(
                3_000_000,
                config.topicLogConfig(Map.of("max.message.bytes", "3000000")).maxMessageBytes());
        assertEquals(2_000_000, config.topicLogConfig(Map.of()).maxMessageBytes());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            nullValues = "-",
            value = {
                // log.retention.ms over log.retention.minutes over log.retention.hours, as Kafka; negative: unlimited
                "-   | -   | 5  | 18000000",
                "-   | 3   | 5  | 180000",
                "250 | 3   | 5  | 250",
                "-1  | 3   | 5  | -1",
                "-7  | -   | -  | -1",
                "-   | -2  | 5  | -1",
                "-   | -   | -  | 604800000"
            })
    void retentionKeysTakeKafkasPrecedence(String ms, String minutes, String hours, long expected) {
        Map<String, String> props = minimal();
        if (ms != null) {
            props.put("log.retention.ms", ms);
        }
        if (minutes != null) {
            props.put("log.retention.minutes", minutes);
        }
        if (hours != null) {
            props.put("log.retention.hours", hours);
        }
        assertEquals(expected, BrokerConfig.fromProps(props).logConfigDefaults().retentionMs());
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "node.id                         | x                          | node.id",
                "node.id                         | -1                         | node.id",
                "process.roles                   | broker                     | process.roles",
                "process.roles                   | controller,controller      | process.roles",
                "num.network.threads             | 0                          | num.network.threads",
                "num.io.threads                  | many                       | num.io.threads",
                "socket.request.max.bytes        | 0                          | socket.request.max.bytes",
                "queued.max.request.bytes        | 0                          | queued.max.request.bytes",
                "max.connections                 | 0                          | max.connections",
                "auto.create.topics.enable       | yes                        | auto.create.topics.enable",
                "offsets.topic.compression.codec | 9                          | offsets.topic.compression.codec",
                "listeners                       | localhost:9092             | listeners",
                "listeners                       | PLAINTEXT://a:99999        | listeners",
                "listeners                       | SSL://127.0.0.1:9093       | security.inter.broker.protocol",
                "listeners                       | PLAINTEXT://:1,PLAINTEXT://:2 | listeners",
                "listeners                       | CONTROLLER://:9093         | listeners",
                "listeners                       | INTERNAL://:9092           | listener.security.protocol.map",
                "listeners                       | PLAINTEXT://0.0.0.0:9092   | listeners",
                "advertised.listeners            | PLAINTEXT://0.0.0.0:9092   | advertised.listeners",
                "advertised.listeners            | OTHER://host:9092          | advertised.listeners",
                "listener.security.protocol.map  | PLAINTEXT                  | listener.security.protocol.map",
                "log.dirs                        | ' , '                      | log.dirs",
                "log.retention.hours             | a week                     | log.retention.hours",
                "log.retention.ms                | soon                       | log.retention.ms",
                "log.segment.bytes               | 1000                       | log.segment.bytes",
                "log.cleanup.policy              | shred                      | log.cleanup.policy",
                "message.max.bytes               | -5                         | message.max.bytes",
                "log.flush.offset.checkpoint.interval.ms | 0                  | log.flush.offset.checkpoint.interval.ms",
                "num.recovery.threads.per.data.dir | 0                        | num.recovery.threads.per.data.dir",
                "group.min.session.timeout.ms    | 2000000                    | group.max.session.timeout.ms",
                "krabka.health.listen.addr       | 9405                       | krabka.health.listen.addr"
            })
    void aBadValueStopsWithOneLineNamingTheKey(String key, String value, String blamed) {
        BrokerConfigException e = assertThrows(BrokerConfigException.class, () -> config(key, value));
        assertEquals(blamed, e.key(), e.getMessage());
        assertTrue(e.getMessage().contains(blamed), e.getMessage());
        assertFalse(e.getMessage().contains("\n"), e.getMessage());
    }

    @Test
    void aMissingRequiredKeyIsNamed() {
        BrokerConfigException e = assertThrows(
                BrokerConfigException.class,
                () -> BrokerConfig.fromProps(Map.of("process.roles", "broker,controller")));
        assertEquals("node.id", e.key());
        assertEquals("Missing required configuration \"node.id\" which has no default value.", e.getMessage());
        assertEquals(
                "process.roles",
                assertThrows(BrokerConfigException.class, () -> BrokerConfig.fromProps(Map.of("node.id", "1")))
                        .key());
    }

    @Test
    void aControllerListenerIsPlaintextUnlessTheProtocolMapIsGivenWithoutIt() {
        String listeners = "PLAINTEXT://127.0.0.1:9092,CONTROLLER://127.0.0.1:9093";
        assertEquals(
                Optional.of(new Endpoint("CONTROLLER", "127.0.0.1", 9093)),
                config("listeners", listeners).controllerListener());
        assertEquals(
                Optional.of(new Endpoint("CTL", "127.0.0.1", 9093)),
                config(
                                "listeners",
                                "PLAINTEXT://127.0.0.1:9092,CTL://127.0.0.1:9093",
                                "controller.listener.names",
                                "ctl")
                        .controllerListener());
        BrokerConfigException e = assertThrows(
                BrokerConfigException.class,
                () -> config("listeners", listeners, "listener.security.protocol.map", "PLAINTEXT:PLAINTEXT"));
        assertEquals("listener.security.protocol.map", e.key());
        assertEquals(
                Optional.of(new Endpoint("CONTROLLER", "127.0.0.1", 9093)),
                config(
                                "listeners",
                                listeners,
                                "listener.security.protocol.map",
                                "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT")
                        .controllerListener());
    }

    @Test
    void ipv6ListenersInBrackets() {
        BrokerConfig config = config("listeners", "PLAINTEXT://[::1]:9092");
        assertEquals(new Endpoint("PLAINTEXT", "::1", 9092), config.listener());
        assertEquals("PLAINTEXT://[::1]:9092", config.listener().toString());
    }

    @Test
    void unknownKeysAreKeptAndListedAndKnownOnesAreNot() {
        BrokerConfig config = config(
                "ssl.keystore.locaton",
                "/etc/ks",
                "log.retention.hours",
                "1",
                "log.flush.interval.ms",
                "10",
                "transaction.max.timeout.ms",
                "1000",
                "colour",
                "blue");
        assertEquals(Set.of("colour", "ssl.keystore.locaton"), config.unknownKeys());
        assertEquals("blue", config.originals().get("colour"));
        assertTrue(BrokerConfig.knownKeys()
                .containsAll(List.of(
                        "log.roll.hours",
                        "log.cleaner.delete.retention.ms",
                        "node.id",
                        "num.recovery.threads.per.data.dir",
                        "krabka.health.listen.addr",
                        "message.max.bytes")));
    }

    @Test
    void serverPropertiesAndOverridesLayerAsKafkaStartLayersThem(@TempDir Path dir) throws Exception {
        Path file = dir.resolve("server.properties");
        Files.writeString(file, """
                # Kafka's quickstart, in part
                node.id=1
                process.roles=broker,controller
                listeners=PLAINTEXT://:9092,CONTROLLER://:9093
                log.dirs=/tmp/kraft-combined-logs
                num.partitions = 3
                log.retention.hours=168
                """, StandardCharsets.ISO_8859_1);
        Map<String, String> fromFile = ServerProperties.read(file);
        assertEquals("3", fromFile.get("num.partitions"));
        Map.Entry<String, String> override = ServerProperties.parseOverride("num.partitions=8");
        Map<String, String> defaults = Map.of("log.dirs", "./krabka-data", "num.partitions", "2");
        BrokerConfig config = BrokerConfig.fromProps(ServerProperties.layered(List.of(
                defaults, fromFile, Map.ofEntries(override, ServerProperties.parseOverride("log.retention.ms=1000")))));
        assertEquals(8, config.numPartitions());
        assertEquals(List.of(Path.of("/tmp/kraft-combined-logs")), config.logDirs());
        assertEquals(1000, config.logConfigDefaults().retentionMs());
        assertEquals(Map.entry("advertised.listeners", ""), ServerProperties.parseOverride("advertised.listeners="));
        assertEquals(Map.entry("a", "b=c"), ServerProperties.parseOverride("a=b=c"));
        for (String bad : List.of("novalue", "=x", " =x")) {
            BrokerConfigException e =
                    assertThrows(BrokerConfigException.class, () -> ServerProperties.parseOverride(bad));
            assertEquals("--override", e.key());
        }
    }
}
