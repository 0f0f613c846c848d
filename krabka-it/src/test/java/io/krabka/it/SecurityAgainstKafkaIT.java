package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertAll;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Issue 16's {@code server.properties} (a SASL_SSL listener with PLAIN and SCRAM, an SSL listener requiring client
 * certificates, the StandardAuthorizer, {@code super.users}, no access without an ACL) run unchanged by Apache Kafka
 * 4.4 and by Krabka ({@code krabka broker --config}), each formatted with a SCRAM user as {@code kafka-storage format
 * --add-scram} does, then {@link SecurityScenario} against each with Kafka's Java clients and its {@code kafka-acls},
 * {@code kafka-configs} and {@code kafka-topics}: every answer, refusal types and messages, lists of ACLs, users and
 * topics, and the tools' output, must be Kafka's, before and after a restart.
 */
@ResourceLock(ReferenceKafka.BROKER_LOCK)
class SecurityAgainstKafkaIT {
    private static final String KAFKA = "4.4.0";

    @TempDir
    Path dir;

    @Test
    void krabkaAnswersAsKafka() throws Exception {
        SecuredBroker.Tls tls = SecuredBroker.Tls.create(dir.resolve("tls"));
        Path alice = tls.ca().keystore("alice", SecurityScenario.ALICE);

        SecuredBroker onKafka = SecuredBroker.onFreePorts(dir.resolve("kafka").resolve("data"), tls);
        Path kafkaConfig = onKafka.writeServerProperties(dir.resolve("kafka").resolve("server.properties"));
        Map<String, String> kafka;
        ReferenceKafka reference = ReferenceKafka.onConfig(
                KAFKA,
                dir.resolve("kafka"),
                kafkaConfig,
                List.of("--add-scram", SecurityScenario.ERIN_SCRAM),
                onKafka.admin());
        try {
            kafka = SecurityScenario.run(onKafka, alice, dir.resolve("kafka-clients"), () -> {
                reference.close();
                reference.restart();
            });
        } finally {
            reference.close();
        }
        assertKafkaServedTheScenario(kafka);

        SecuredBroker onKrabka = SecuredBroker.onFreePorts(dir.resolve("krabka").resolve("data"), tls);
        Path krabkaConfig = onKrabka.writeServerProperties(dir.resolve("krabka").resolve("server.properties"));
        List<String> format = new ArrayList<>(onKrabka.krabkaFormatArguments());
        format.addAll(List.of("--add-scram", SecurityScenario.ERIN_SCRAM));
        Map<String, String> krabka;
        try (KrabkaBroker broker = KrabkaBroker.formattedOnConfig(
                dir.resolve("krabka"), krabkaConfig, onKrabka.saslSslBootstrap(), format)) {
            krabka = SecurityScenario.run(onKrabka, alice, dir.resolve("krabka-clients"), () -> {
                assertEquals(0, broker.stop(), "Krabka's exit code on SIGTERM");
                broker.start();
            });
        }
        SideBySide.assertSameAnswers(kafka, krabka);
    }

    // The scenario reaches the broker, and both grants and refusals happen: both brokers failing alike is no answer.
    private static void assertKafkaServedTheScenario(Map<String, String> kafka) {
        StringBuilder all = new StringBuilder("Kafka's answers:");
        kafka.forEach(
                (step, answer) -> all.append("\n  ").append(step).append(": ").append(answer));
        assertAll(
                () -> assertEquals("ok", kafka.get("admin, PLAIN over SASL_SSL"), all::toString),
                () -> assertEquals(
                        "SslAuthenticationException", kafka.get("a truststore of another CA"), all::toString),
                () -> assertEquals("ok", kafka.get("alice's certificate on the SSL port"), all::toString),
                () -> assertTrue(
                        kafka.get("PLAIN, wrong password").startsWith("SaslAuthenticationException"), all::toString),
                () -> assertEquals("ok", kafka.get("SCRAM user of the format"), all::toString),
                () -> assertEquals("ok", kafka.get("carol, SCRAM-SHA-256"), all::toString),
                () -> assertEquals("ok", kafka.get("dave, SCRAM-SHA-512"), all::toString),
                () -> assertEquals("offset 0", kafka.get("bob produces to orders"), all::toString),
                () -> assertTrue(
                        kafka.get("bob produces to eng-metrics, DENY over ALLOW")
                                .startsWith("TopicAuthorizationException"),
                        all::toString),
                () -> assertEquals("offset 0", kafka.get("alice produces to payments"), all::toString),
                () -> assertEquals("[eng-logs, eng-metrics, orders]", kafka.get("bob's topics"), all::toString),
                () -> assertEquals("[payments]", kafka.get("alice's topics"), all::toString),
                () -> assertEquals(
                        kafka.get("ACLs after the delete"), kafka.get("ACLs after the restart"), all::toString),
                () -> assertEquals("ok", kafka.get("carol after the restart"), all::toString));
    }
}
