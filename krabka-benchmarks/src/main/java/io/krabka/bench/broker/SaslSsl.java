package io.krabka.bench.broker;

import io.krabka.testservers.TestCertificates;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;

/**
 * A SASL_SSL listener as issue 16's {@code server.properties} sets one up, for the throughput benchmarks: the
 * broker's key in a PKCS12 keystore signed by a test authority ({@link TestCertificates}), the truststore of that
 * authority, PLAIN users from the listener's JAAS settings and Kafka's StandardAuthorizer with the benchmark's user
 * a super user (every request authorized, as on a secured cluster).
 *
 * @param keystore   the broker's keystore
 * @param truststore the clients' truststore
 */
record SaslSsl(Path keystore, Path truststore) {
    private static final String PASSWORD = "bench-secret";
    private static final String USER = "bench";

    /** Makes the keystore and truststore in {@code dir}: a test authority and the broker's key it signed. */
    static SaslSsl create(Path dir) throws IOException {
        TestCertificates certificates = TestCertificates.create(dir, PASSWORD);
        return new SaslSsl(certificates.keystore("broker", "CN=localhost"), certificates.truststore());
    }

    /** The broker's settings for a SASL_SSL listener named {@code SASL_SSL} on {@code port}. */
    Map<String, String> server(int port, int controllerPort) {
        String listeners = "SASL_SSL://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controllerPort;
        String jaas = "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + USER
                + "\" password=\"" + PASSWORD + "\" user_" + USER + "=\"" + PASSWORD + "\";";
        return Map.ofEntries(
                Map.entry("listeners", listeners),
                Map.entry("advertised.listeners", listeners),
                Map.entry("listener.security.protocol.map", "SASL_SSL:SASL_SSL,CONTROLLER:PLAINTEXT"),
                Map.entry("inter.broker.listener.name", "SASL_SSL"),
                Map.entry("ssl.keystore.type", "PKCS12"),
                Map.entry("ssl.keystore.location", keystore.toString()),
                Map.entry("ssl.keystore.password", PASSWORD),
                Map.entry("ssl.key.password", PASSWORD),
                // The broker is a client of its own listener (inter-broker): it checks at start that it trusts it.
                Map.entry("ssl.truststore.type", "PKCS12"),
                Map.entry("ssl.truststore.location", truststore.toString()),
                Map.entry("ssl.truststore.password", PASSWORD),
                Map.entry("sasl.enabled.mechanisms", "PLAIN"),
                Map.entry("sasl.mechanism.inter.broker.protocol", "PLAIN"),
                Map.entry("listener.name.sasl_ssl.plain.sasl.jaas.config", jaas),
                Map.entry("authorizer.class.name", "org.apache.kafka.metadata.authorizer.StandardAuthorizer"),
                Map.entry("super.users", "User:" + USER + ";User:ANONYMOUS"),
                Map.entry("allow.everyone.if.no.acl.found", "false"));
    }

    /** A client's settings besides its bootstrap servers: SASL_SSL, PLAIN as the benchmark's user. */
    Map<String, Object> client() {
        return Map.of(
                "security.protocol",
                "SASL_SSL",
                "ssl.truststore.type",
                "PKCS12",
                "ssl.truststore.location",
                truststore.toString(),
                "ssl.truststore.password",
                PASSWORD,
                "sasl.mechanism",
                "PLAIN",
                "sasl.jaas.config",
                "org.apache.kafka.common.security.plain.PlainLoginModule required username=\"" + USER + "\" password=\""
                        + PASSWORD + "\";");
    }
}
