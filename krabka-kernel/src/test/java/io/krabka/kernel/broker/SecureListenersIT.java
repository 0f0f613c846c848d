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
import io.krabka.kernel.log.LogManager;
import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Listener;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import io.krabka.kernel.security.Authorizer;
import io.krabka.kernel.security.ListenerSasl;
import io.krabka.kernel.security.ScramCredentials;
import io.krabka.testservers.TestCertificates;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.function.Function;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.Node;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.errors.SslAuthenticationException;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.security.auth.KafkaPrincipal;
import org.apache.kafka.common.security.scram.ScramCredential;
import org.apache.kafka.common.security.scram.internals.ScramFormatter;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A broker started from Kafka's security settings (the server.properties, on ephemeral ports) serves real
 * Kafka clients on SASL_SSL (PLAIN and SCRAM), SSL with client certificates and SASL_PLAINTEXT, each listener
 * answering with its own endpoints; refuses wrong passwords, untrusted brokers, clients without a certificate, plain
 * clients on a TLS port and TLS-only clients on the SASL_SSL port, while it keeps serving; re-authenticates a client
 * whose session ends (KIP-368); and no request of a client that has not authenticated ever reaches a handler.
 */
class SecureListenersIT {

    private static final String PASSWORD = "store-secret";
    private static final Map<String, ScramCredential> SCRAM = new ConcurrentHashMap<>();
    /** Each handled request's listener and principal. */
    private static final Set<String> SEEN = ConcurrentHashMap.newKeySet();

    @TempDir
    static Path root;

    static TestCertificates certificates;
    static Path clientKeystore;
    static Path otherTruststore;
    static Broker broker;

    @BeforeAll
    static void start() throws Exception {
        certificates = TestCertificates.create(root.resolve("ca"), PASSWORD);
        Path brokerKeystore = certificates.keystore("broker", "CN=localhost,OU=Broker,O=Krabka");
        clientKeystore = certificates.keystore("client", "CN=app,OU=Payments,O=Krabka");
        otherTruststore =
                TestCertificates.create(root.resolve("other-ca"), PASSWORD).truststore();
        SCRAM.put("carol/SCRAM-SHA-512", credential(ScramMechanism.SCRAM_SHA_512, "carol-secret"));
        SCRAM.put("dave/SCRAM-SHA-256", credential(ScramMechanism.SCRAM_SHA_256, "dave-secret"));
        Path data = root.resolve("data");
        new Formatter(Clock.systemUTC())
                .format(new FormatSpec(
                        List.of(data),
                        data,
                        ClusterId.random(),
                        1,
                        Optional.empty(),
                        Optional.empty(),
                        List.of(),
                        new InitialQuorum.Standalone("127.0.0.1", 9093),
                        "CONTROLLER",
                        false));
        String plainJaas = "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"admin\" "
                + "password=\"admin-secret\" user_admin=\"admin-secret\" user_alice=\"alice-secret\";";
        String scramJaas = "org.apache.kafka.common.security.scram.ScramLoginModule required;";
        Map<String, String> props = new HashMap<>();
        props.put("node.id", "1");
        props.put("process.roles", "broker,controller");
        props.put("controller.quorum.bootstrap.servers", "127.0.0.1:9093");
        props.put("controller.listener.names", "CONTROLLER");
        props.put(
                "listeners",
                "SASL_SSL://127.0.0.1:0,SSL://127.0.0.1:0,SASL_PLAINTEXT://127.0.0.1:0,CONTROLLER://127.0.0.1:9093");
        props.put(
                "listener.security.protocol.map",
                "SASL_SSL:SASL_SSL,SSL:SSL,SASL_PLAINTEXT:SASL_PLAINTEXT,CONTROLLER:PLAINTEXT");
        props.put("inter.broker.listener.name", "SASL_SSL");
        props.put("log.dirs", data.toString());
        props.put("krabka.health.listen.addr", "none");
        props.put("offsets.topic.num.partitions", "1");
        props.put("group.initial.rebalance.delay.ms", "0");
        props.putAll(certificates.sslSettings(brokerKeystore));
        props.put("listener.name.ssl.ssl.client.auth", "required");
        props.put("sasl.enabled.mechanisms", "PLAIN,SCRAM-SHA-256,SCRAM-SHA-512");
        props.put("sasl.mechanism.inter.broker.protocol", "PLAIN");
        props.put("listener.name.sasl_ssl.plain.sasl.jaas.config", plainJaas);
        props.put("listener.name.sasl_ssl.scram-sha-256.sasl.jaas.config", scramJaas);
        props.put("listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config", scramJaas);
        props.put("listener.name.sasl_plaintext.plain.sasl.jaas.config", plainJaas);
        props.put("listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config", scramJaas);
        props.put("listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config", scramJaas);
        // Short sessions on one listener only: its clients re-authenticate (KIP-368).
        props.put("listener.name.sasl_plaintext.connections.max.reauth.ms", "1000");
        broker = Broker.start(BrokerConfig.fromProps(props), new Recording(new KrabkaServices()));
    }

    @AfterAll
    static void stop() {
        if (broker != null) {
            broker.close();
        }
    }

    private static ScramCredential credential(ScramMechanism mechanism, String password) throws Exception {
        return new ScramFormatter(org.apache.kafka.common.security.scram.internals.ScramMechanism.forMechanismName(
                        mechanism.mechanismName()))
                .generateCredential(password, 4096);
    }

    @Test
    void mutualTlsCarriesTheCertificatesPrincipalAndAnswersWithTheSslEndpoint() throws Exception {
        Properties client = ssl(certificates.truststore());
        client.put(SslConfigs.SSL_KEYSTORE_TYPE_CONFIG, "PKCS12");
        client.put(SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG, clientKeystore.toString());
        client.put(SslConfigs.SSL_KEYSTORE_PASSWORD_CONFIG, PASSWORD);
        client.put(SslConfigs.SSL_KEY_PASSWORD_CONFIG, PASSWORD);
        produceAndConsume("mtls", client);
        assertEquals(List.of(port("SSL")), nodePorts(client));
        assertTrue(
                SEEN.contains("SSL " + new KafkaPrincipal(KafkaPrincipal.USER_TYPE, "CN=app,OU=Payments,O=Krabka")),
                SEEN.toString());
    }

    @Test
    void saslSslWithPlainAndScram() throws Exception {
        Properties plain = sasl("SASL_SSL", "PLAIN", "alice", "alice-secret");
        produceAndConsume("plain", plain);
        assertEquals(List.of(port("SASL_SSL")), nodePorts(plain));
        Properties scram = sasl("SASL_SSL", "SCRAM-SHA-512", "carol", "carol-secret");
        produceAndConsume("scram", scram);
        assertTrue(SEEN.contains("SASL_SSL User:alice"), SEEN.toString());
        assertTrue(SEEN.contains("SASL_SSL User:carol"), SEEN.toString());
    }

    @Test
    void wrongPasswordsAreRefusedWithKafkasMessages() {
        long failures = sasl("SASL_SSL").failures();
        Throwable plain = failure(sasl("SASL_SSL", "PLAIN", "alice", "not-her-secret"));
        assertInstanceOf(SaslAuthenticationException.class, plain);
        assertEquals("Authentication failed: Invalid username or password", plain.getMessage());
        Throwable scram = failure(sasl("SASL_SSL", "SCRAM-SHA-512", "carol", "not-her-secret"));
        assertInstanceOf(SaslAuthenticationException.class, scram);
        assertEquals(
                "Authentication failed during authentication due to invalid credentials with SASL mechanism "
                        + "SCRAM-SHA-512",
                scram.getMessage());
        Throwable unknown = failure(sasl("SASL_SSL", "SCRAM-SHA-256", "nobody", "x"));
        assertInstanceOf(SaslAuthenticationException.class, unknown);
        assertTrue(sasl("SASL_SSL").failures() >= failures + 3);
    }

    @Test
    void tlsFailuresLeaveTheBrokerServing() throws Exception {
        // A broker certificate the client does not trust.
        assertInstanceOf(SslAuthenticationException.class, failure(ssl(otherTruststore)));
        // No client certificate where ssl.client.auth=required.
        assertInstanceOf(SslAuthenticationException.class, failure(ssl(certificates.truststore())));
        // A plaintext client on the TLS port gets nothing.
        Properties plaintext = new Properties();
        plaintext.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + port("SSL"));
        assertInstanceOf(TimeoutException.class, failure(plaintext));
        // TLS only, no SASL, on the SASL_SSL port: answered nothing but ApiVersions.
        Properties tlsOnly = ssl(certificates.truststore());
        tlsOnly.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + port("SASL_SSL"));
        assertInstanceOf(TimeoutException.class, failure(tlsOnly));
        assertFalse(SEEN.stream().anyMatch(seen -> seen.contains("ANONYMOUS")), SEEN.toString());
        assertEquals(List.of(port("SASL_SSL")), nodePorts(sasl("SASL_SSL", "PLAIN", "alice", "alice-secret")));
    }

    @Test
    void aClientReauthenticatesWhenItsSessionEnds() throws Exception {
        ListenerSasl listener = sasl("SASL_PLAINTEXT");
        long before = listener.reauthentications();
        Properties client = sasl("SASL_PLAINTEXT", "SCRAM-SHA-256", "dave", "dave-secret");
        try (Admin admin = Admin.create(client)) {
            admin.createTopics(List.of(new NewTopic("reauth", 1, (short) 1)))
                    .all()
                    .get();
            // Sessions last a second: the admin keeps using its connection until it has re-authenticated.
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (listener.reauthentications() == before && System.nanoTime() < deadline) {
                admin.describeTopics(List.of("reauth")).allTopicNames().get();
                Thread.sleep(100);
            }
            admin.describeTopics(List.of("reauth")).allTopicNames().get();
        }
        assertTrue(listener.reauthentications() > before, "no re-authentication");
        assertTrue(SEEN.contains("SASL_PLAINTEXT User:dave"), SEEN.toString());
    }

    private static void produceAndConsume(String topic, Properties client) throws Exception {
        try (Admin admin = Admin.create(client)) {
            admin.createTopics(List.of(new NewTopic(topic, 1, (short) 1))).all().get();
        }
        Properties producerProps = new Properties();
        producerProps.putAll(client);
        producerProps.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        producerProps.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName());
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(producerProps)) {
            for (int i = 0; i < 100; i++) {
                producer.send(new ProducerRecord<>(topic, "k" + i, "v" + i)).get();
            }
        }
        Properties consumerProps = new Properties();
        consumerProps.putAll(client);
        consumerProps.put(ConsumerConfig.GROUP_ID_CONFIG, topic + "-group");
        consumerProps.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        consumerProps.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        consumerProps.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName());
        List<String> values = new ArrayList<>();
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(consumerProps)) {
            consumer.subscribe(List.of(topic));
            long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
            while (values.size() < 100 && System.nanoTime() < deadline) {
                ConsumerRecords<String, String> records = consumer.poll(Duration.ofMillis(200));
                records.forEach(record -> values.add(record.value()));
            }
            consumer.commitSync();
        }
        assertEquals(100, values.size());
        assertEquals("v0", values.getFirst());
        assertEquals("v99", values.getLast());
    }

    private static List<Integer> nodePorts(Properties client) throws Exception {
        try (Admin admin = Admin.create(client)) {
            return admin.describeCluster().nodes().get().stream()
                    .map(Node::port)
                    .toList();
        }
    }

    /** What a client's first request fails with. */
    private static Throwable failure(Properties client) {
        client.put(CommonClientConfigs.DEFAULT_API_TIMEOUT_MS_CONFIG, "3000");
        client.put(CommonClientConfigs.REQUEST_TIMEOUT_MS_CONFIG, "2000");
        try (Admin admin = Admin.create(client)) {
            ExecutionException e = assertThrows(
                    ExecutionException.class,
                    () -> admin.describeCluster().nodes().get());
            return e.getCause();
        }
    }

    private static Properties ssl(Path truststore) {
        Properties client = new Properties();
        client.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + port("SSL"));
        client.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, "SSL");
        client.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PKCS12");
        client.put(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, truststore.toString());
        client.put(SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG, PASSWORD);
        return client;
    }

    private static Properties sasl(String listener, String mechanism, String user, String password) {
        Properties client = listener.equals("SASL_SSL") ? ssl(certificates.truststore()) : new Properties();
        client.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + port(listener));
        client.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, listener);
        client.put(SaslConfigs.SASL_MECHANISM, mechanism);
        String module = mechanism.equals("PLAIN")
                ? "org.apache.kafka.common.security.plain.PlainLoginModule"
                : "org.apache.kafka.common.security.scram.ScramLoginModule";
        client.put(
                SaslConfigs.SASL_JAAS_CONFIG,
                module + " required username=\"" + user + "\" password=\"" + password + "\";");
        return client;
    }

    private static ListenerSasl sasl(String listener) {
        return broker.listeners().stream()
                .filter(l -> l.name().equals(listener))
                .map(Listener::sasl)
                .flatMap(Optional::stream)
                .findFirst()
                .orElseThrow();
    }

    private static int port(String listener) {
        InetSocketAddress address = broker.listenAddresses().get(listener);
        return address.getPort();
    }

    /** The broker's services, with the test's SCRAM users, recording who each handled request came from. */
    private record Recording(KrabkaServices services) implements BrokerServices {

        @Override
        public Function<String, LogConfig> startBeforeLogs(BrokerContext context) throws IOException {
            return services.startBeforeLogs(context);
        }

        @Override
        public List<ApiHandler> handlers(BrokerContext context, LogManager logManager) throws IOException {
            return services.handlers(context, logManager).stream()
                    .map(handler -> (ApiHandler) new ApiHandler() {
                        @Override
                        public ApiKeys apiKey() {
                            return handler.apiKey();
                        }

                        @Override
                        public short oldestVersion() {
                            return handler.oldestVersion();
                        }

                        @Override
                        public short latestVersion() {
                            return handler.latestVersion();
                        }

                        @Override
                        public CompletableFuture<Response> handle(Request request) {
                            SEEN.add(request.listenerName() + " " + request.principal());
                            return handler.handle(request);
                        }
                    })
                    .toList();
        }

        @Override
        public void handleLogDirFailure(Path logDir) {
            services.handleLogDirFailure(logDir);
        }

        @Override
        public ApiFeatures features() {
            return services.features();
        }

        @Override
        public Optional<Authorizer> authorizer() {
            return services.authorizer();
        }

        @Override
        public ScramCredentials scramCredentials() {
            return (user, mechanism) -> Optional.ofNullable(SCRAM.get(user + "/" + mechanism.mechanismName()));
        }

        @Override
        public void close() throws IOException {
            services.close();
        }
    }
}
