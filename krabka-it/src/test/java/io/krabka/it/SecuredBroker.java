package io.krabka.it;

import io.krabka.testservers.TestCertificates;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.common.config.SaslConfigs;
import org.apache.kafka.common.config.SslConfigs;

/**
 * A single node secured as issue 16's {@code server.properties} has it: a SASL_SSL listener (PLAIN for {@code admin}
 * and {@code bob} from the listener's JAAS users, SCRAM-SHA-256 and -512 from the metadata log), an SSL listener that
 * requires a client certificate, a PLAINTEXT controller listener, Kafka's StandardAuthorizer with {@code super.users=
 * User:admin;User:ANONYMOUS} and no access where no ACL grants it; and the client settings of each identity the
 * tests connect as. The same file runs Apache Kafka and Krabka.
 *
 * @param saslSslPort    the SASL_SSL listener's port
 * @param sslPort        the SSL (mTLS) listener's port
 * @param controllerPort the controller listener's port
 * @param dataDir        the log directory
 * @param tls            the broker's keystore and the CA's truststore
 */
record SecuredBroker(int saslSslPort, int sslPort, int controllerPort, Path dataDir, Tls tls) {

    /** The password of every keystore, truststore and key of the scenario. */
    static final String PASSWORD = "test-secret";

    /**
     * The scenario's TLS files.
     *
     * @param ca                  the authority that issued the broker's and the clients' certificates
     * @param brokerKeystore      the broker's key and certificate, for 127.0.0.1 and localhost
     * @param untrustedTruststore the truststore of another authority, which issued none of them
     */
    record Tls(TestCertificates ca, Path brokerKeystore, Path untrustedTruststore) {

        /** Makes them in {@code dir}. */
        static Tls create(Path dir) throws IOException {
            TestCertificates ca = TestCertificates.create(dir.resolve("ca"), PASSWORD);
            return new Tls(
                    ca,
                    ca.keystore("broker", "CN=localhost,O=Krabka"),
                    TestCertificates.create(dir.resolve("other-ca"), PASSWORD).truststore());
        }
    }

    /** The PLAIN password of the super user {@code admin}. */
    static final String ADMIN_PASSWORD = "admin-secret";

    /** The PLAIN password of {@code bob}, who may do only what ACLs grant him. */
    static final String BOB_PASSWORD = "bob-secret";

    /** A node on free loopback ports, its log directory {@code dataDir}. */
    static SecuredBroker onFreePorts(Path dataDir, Tls tls) {
        return new SecuredBroker(
                ReferenceKafka.freePort(), ReferenceKafka.freePort(), ReferenceKafka.freePort(), dataDir, tls);
    }

    /** Writes the broker's {@code server.properties} to {@code file} and returns it. */
    Path writeServerProperties(Path file) throws IOException {
        String listeners = "SASL_SSL://127.0.0.1:" + saslSslPort + ",SSL://127.0.0.1:" + sslPort
                + ",CONTROLLER://127.0.0.1:" + controllerPort;
        Properties server = new Properties();
        server.put("process.roles", "broker,controller");
        server.put("node.id", "1");
        server.put("controller.quorum.bootstrap.servers", "127.0.0.1:" + controllerPort);
        server.put("controller.listener.names", "CONTROLLER");
        server.put("listeners", listeners);
        server.put("advertised.listeners", listeners);
        server.put("listener.security.protocol.map", "SASL_SSL:SASL_SSL,SSL:SSL,CONTROLLER:PLAINTEXT");
        server.put("inter.broker.listener.name", "SASL_SSL");
        server.put("ssl.keystore.type", "PKCS12");
        server.put("ssl.keystore.location", tls.brokerKeystore().toString());
        server.put("ssl.keystore.password", PASSWORD);
        server.put("ssl.key.password", PASSWORD);
        server.put("ssl.truststore.type", "PKCS12");
        server.put("ssl.truststore.location", tls.ca().truststore().toString());
        server.put("ssl.truststore.password", PASSWORD);
        server.put("listener.name.ssl.ssl.client.auth", "required");
        server.put("sasl.enabled.mechanisms", "PLAIN,SCRAM-SHA-256,SCRAM-SHA-512");
        server.put("sasl.mechanism.inter.broker.protocol", "PLAIN");
        server.put(
                "listener.name.sasl_ssl.plain.sasl.jaas.config",
                "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"admin\" password=\""
                        + ADMIN_PASSWORD + "\" user_admin=\"" + ADMIN_PASSWORD + "\" user_bob=\"" + BOB_PASSWORD
                        + "\";");
        server.put(
                "listener.name.sasl_ssl.scram-sha-256.sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required;");
        server.put(
                "listener.name.sasl_ssl.scram-sha-512.sasl.jaas.config",
                "org.apache.kafka.common.security.scram.ScramLoginModule required;");
        server.put("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer");
        server.put("super.users", "User:admin;User:ANONYMOUS");
        server.put("allow.everyone.if.no.acl.found", "false");
        server.put("log.dirs", dataDir.toString());
        server.putAll(ReferenceKafka.SINGLE_NODE);
        Files.createDirectories(file.getParent());
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            server.store(out, "issue 16: TLS, SASL and ACLs as Kafka configures them");
        }
        return file;
    }

    /** {@code host:port} of the SASL_SSL listener. */
    String saslSslBootstrap() {
        return "127.0.0.1:" + saslSslPort;
    }

    /** {@code host:port} of the SSL listener. */
    String sslBootstrap() {
        return "127.0.0.1:" + sslPort;
    }

    /** A client of {@code user} authenticating with SASL {@code mechanism} over TLS on the SASL_SSL listener. */
    Map<String, Object> sasl(String mechanism, String user, String password) {
        String module = mechanism.equals("PLAIN")
                ? "org.apache.kafka.common.security.plain.PlainLoginModule"
                : "org.apache.kafka.common.security.scram.ScramLoginModule";
        Map<String, Object> client =
                tls(saslSslBootstrap(), "SASL_SSL", tls.ca().truststore());
        client.put(SaslConfigs.SASL_MECHANISM, mechanism);
        client.put(
                SaslConfigs.SASL_JAAS_CONFIG,
                module + " required username=\"" + user + "\" password=\"" + password + "\";");
        return client;
    }

    /** The super user, {@code admin}, with PLAIN. */
    Map<String, Object> admin() {
        return sasl("PLAIN", "admin", ADMIN_PASSWORD);
    }

    /**
     * A client with the certificate in {@code keystore} on the SSL listener, trusting the CA from its PEM file (as
     * clients given a CA's {@code .pem} do).
     */
    Map<String, Object> certificate(Path keystore) {
        Map<String, Object> client = tls(sslBootstrap(), "SSL", tls.ca().caPem());
        client.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PEM");
        client.remove(SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG);
        client.put(SslConfigs.SSL_KEYSTORE_TYPE_CONFIG, "PKCS12");
        client.put(SslConfigs.SSL_KEYSTORE_LOCATION_CONFIG, keystore.toString());
        client.put(SslConfigs.SSL_KEYSTORE_PASSWORD_CONFIG, PASSWORD);
        client.put(SslConfigs.SSL_KEY_PASSWORD_CONFIG, PASSWORD);
        return client;
    }

    /** {@code admin} on the SASL_SSL listener trusting another CA than the broker's. */
    Map<String, Object> untrustingAdmin() {
        Map<String, Object> client = admin();
        client.put(
                SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG,
                tls.untrustedTruststore().toString());
        return client;
    }

    /** A client speaking plain TCP (no TLS, no SASL) to the SASL_SSL port. */
    Map<String, Object> plaintextOnSaslSslPort() {
        return new HashMap<>(Map.of(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, saslSslBootstrap()));
    }

    /** A client doing TLS but no SASL on the SASL_SSL port. */
    Map<String, Object> tlsWithoutSasl() {
        return tls(saslSslBootstrap(), "SSL", tls.ca().truststore());
    }

    /** A client doing TLS without a certificate of its own on the SSL port, which requires one. */
    Map<String, Object> tlsWithoutCertificate() {
        return tls(sslBootstrap(), "SSL", tls.ca().truststore());
    }

    /** Writes {@code client} as a properties file for a Kafka tool's {@code --command-config} and returns it. */
    static Path commandConfig(Path file, Map<String, Object> client) throws IOException {
        Properties properties = new Properties();
        client.forEach((key, value) -> properties.put(key, String.valueOf(value)));
        Files.createDirectories(file.getParent());
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            properties.store(out, null);
        }
        return file;
    }

    /** The {@code krabka format} arguments that format this node's log directory as Kafka's tool does. */
    List<String> krabkaFormatArguments() {
        return List.of(
                "--log-dir",
                dataDir.toString(),
                "--node-id",
                "1",
                "--standalone",
                "--controller-listener",
                "127.0.0.1:" + controllerPort);
    }

    private static Map<String, Object> tls(String bootstrap, String protocol, Path truststore) {
        Map<String, Object> client = new HashMap<>();
        client.put(CommonClientConfigs.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        client.put(CommonClientConfigs.SECURITY_PROTOCOL_CONFIG, protocol);
        client.put(SslConfigs.SSL_TRUSTSTORE_TYPE_CONFIG, "PKCS12");
        client.put(SslConfigs.SSL_TRUSTSTORE_LOCATION_CONFIG, truststore.toString());
        client.put(SslConfigs.SSL_TRUSTSTORE_PASSWORD_CONFIG, PASSWORD);
        return client;
    }
}
