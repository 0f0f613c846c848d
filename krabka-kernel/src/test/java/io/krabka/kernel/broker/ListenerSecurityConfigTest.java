package io.krabka.kernel.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.network.Listener;
import io.krabka.kernel.security.ScramCredentials;
import io.krabka.testservers.TestCertificates;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.security.auth.SecurityProtocol;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The listeners' settings as Kafka reads them: the issue's server.properties (SASL_SSL, SSL and a controller
 * listener) gives two broker listeners with their own endpoints, TLS and SASL; a listener's own keys take precedence;
 * a store that is missing or whose password is wrong, a mechanism Krabka does not serve and a mechanism without a JAAS
 * login stop the broker with one line naming the key.
 */
class ListenerSecurityConfigTest {

    private static final String PASSWORD = "store-secret";
    private static final ScramCredentials NO_USERS = (user, mechanism) -> Optional.empty();

    @TempDir
    static Path dir;

    static TestCertificates certificates;
    static Path keystore;

    @BeforeAll
    static void certificates() throws Exception {
        certificates = TestCertificates.create(dir.resolve("ca"), PASSWORD);
        keystore = certificates.keystore("broker", "CN=localhost");
    }

    /** The issue's file, on the ports it names. */
    private static Map<String, String> issueFile() {
        Map<String, String> props = new HashMap<>();
        props.put("process.roles", "broker,controller");
        props.put("node.id", "1");
        props.put("log.dirs", dir.resolve("data").toString());
        props.put("controller.quorum.bootstrap.servers", "127.0.0.1:9093");
        props.put("controller.listener.names", "CONTROLLER");
        props.put("listeners", "SASL_SSL://127.0.0.1:9094,SSL://127.0.0.1:9095,CONTROLLER://127.0.0.1:9093");
        props.put("advertised.listeners", "SASL_SSL://127.0.0.1:9094,SSL://127.0.0.1:9095,CONTROLLER://127.0.0.1:9093");
        props.put("listener.security.protocol.map", "SASL_SSL:SASL_SSL,SSL:SSL,CONTROLLER:PLAINTEXT");
        props.put("inter.broker.listener.name", "SASL_SSL");
        props.putAll(certificates.sslSettings(keystore));
        props.put("listener.name.ssl.ssl.client.auth", "required");
        props.put("sasl.enabled.mechanisms", "PLAIN,SCRAM-SHA-256,SCRAM-SHA-512");
        props.put("sasl.mechanism.inter.broker.protocol", "PLAIN");
        props.put(
                "listener.name.sasl_ssl.plain.sasl.jaas.config",
                "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"admin\" "
                        + "password=\"admin-secret\" user_admin=\"admin-secret\" user_bob=\"bob-secret\";");
        props.put(
                "listener.name.sasl_ssl.scram-sha-256.sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required;");
        props.put(
                "listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required;");
        props.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
        props.put("super.users", "User:admin;User:ANONYMOUS");
        props.put("allow.everyone.if.no.acl.found", "false");
        return props;
    }

    @Test
    void theIssuesFileGivesTwoBrokerListenersWithTheirTlsAndSasl() {
        BrokerConfig config = BrokerConfig.fromProps(issueFile());
        assertEquals(
                Map.of(
                        "SASL_SSL", new Endpoint("SASL_SSL", "127.0.0.1", 9094),
                        "SSL", new Endpoint("SSL", "127.0.0.1", 9095)),
                config.advertisedListeners());
        assertEquals("SASL_SSL", config.interBrokerListenerName());
        assertEquals(Optional.of(new Endpoint("CONTROLLER", "127.0.0.1", 9093)), config.controllerListener());
        assertTrue(config.unknownKeys().stream().noneMatch(key -> key.startsWith("listener.name.")));
        List<Listener> listeners = config.networkListeners(NO_USERS);
        assertEquals(
                List.of("SASL_SSL", "SSL"),
                listeners.stream().map(Listener::name).toList());
        Listener saslSsl = listeners.getFirst();
        assertEquals(SecurityProtocol.SASL_SSL, saslSsl.protocol());
        assertTrue(saslSsl.tls().isPresent());
        assertEquals(
                List.of("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"),
                saslSsl.sasl().orElseThrow().enabledMechanisms());
        // ssl.client.auth=required on SSL only.
        assertTrue(
                listeners.get(1).tls().orElseThrow().newEngine("127.0.0.1", 1).getNeedClientAuth());
        assertEquals(
                false, saslSsl.tls().orElseThrow().newEngine("127.0.0.1", 1).getNeedClientAuth());
        assertTrue(listeners.get(1).tls().orElseThrow().requiresClientCertificate());
        assertFalse(saslSsl.tls().orElseThrow().requiresClientCertificate());
    }

    @Test
    void storesThatCannotBeReadNameTheirKey() {
        Map<String, String> missing = issueFile();
        missing.put("ssl.keystore.location", dir.resolve("nowhere.p12").toString());
        assertEquals("ssl.keystore.location", refused(missing).key());

        Map<String, String> wrongPassword = issueFile();
        wrongPassword.put("ssl.keystore.password", "wrong");
        assertEquals("ssl.keystore.password", refused(wrongPassword).key());

        Map<String, String> wrongTrustPassword = issueFile();
        wrongTrustPassword.put("ssl.truststore.password", "wrong");
        assertEquals("ssl.truststore.password", refused(wrongTrustPassword).key());

        // A listener's own key takes precedence, and is the one named.
        Map<String, String> perListener = issueFile();
        perListener.put(
                "listener.name.ssl.ssl.keystore.location",
                dir.resolve("nowhere.p12").toString());
        BrokerConfigException e = refused(perListener);
        assertEquals("listener.name.ssl.ssl.keystore.location", e.key());
        assertTrue(e.getMessage().contains("listener SSL"), e.getMessage());
    }

    @Test
    void saslMechanismsNeedKrabkasSupportAndAJaasLogin() {
        Map<String, String> gssapi = issueFile();
        gssapi.remove("sasl.enabled.mechanisms"); // Kafka's default: GSSAPI
        assertEquals("sasl.enabled.mechanisms", refused(gssapi).key());

        Map<String, String> noJaas = issueFile();
        noJaas.remove("listener.name.sasl_ssl.plain.sasl.jaas.config");
        noJaas.put("sasl.jaas.config", "org.apache.kafka.common.security.plain.PlainLoginModule required;");
        // As Kafka's broker, the unprefixed sasl.jaas.config is not a listener's login.
        assertEquals(
                "listener.name.sasl_ssl.plain.sasl.jaas.config", refused(noJaas).key());
    }

    @Test
    void theInterBrokerListenerMustBeABrokerListener() {
        Map<String, String> props = issueFile();
        props.put("inter.broker.listener.name", "CONTROLLER");
        assertEquals(
                "inter.broker.listener.name",
                assertThrows(BrokerConfigException.class, () -> BrokerConfig.fromProps(props))
                        .key());
        props.remove("inter.broker.listener.name");
        props.put("security.inter.broker.protocol", "SSL");
        assertEquals("SSL", BrokerConfig.fromProps(props).interBrokerListenerName());
        props.put("inter.broker.listener.name", "SSL");
        assertEquals(
                "inter.broker.listener.name",
                assertThrows(BrokerConfigException.class, () -> BrokerConfig.fromProps(props))
                        .key());
    }

    private static BrokerConfigException refused(Map<String, String> props) {
        return assertThrows(
                BrokerConfigException.class, () -> BrokerConfig.fromProps(props).networkListeners(NO_USERS));
    }
}
