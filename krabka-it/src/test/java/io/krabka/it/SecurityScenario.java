package io.krabka.it;

import static io.krabka.it.SecuredClients.CALL_TIMEOUT;
import static io.krabka.it.SecuredClients.REFUSED_TIMEOUT;
import static io.krabka.it.SecuredClients.answer;
import static io.krabka.it.SecuredClients.connect;
import static io.krabka.it.SecuredClients.consume;
import static io.krabka.it.SecuredClients.produce;
import static io.krabka.it.SecuredClients.sortedLines;
import static io.krabka.it.SecuredClients.topics;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.acl.AccessControlEntry;
import org.apache.kafka.common.acl.AccessControlEntryFilter;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.acl.AclPermissionType;
import org.apache.kafka.common.resource.PatternType;
import org.apache.kafka.common.resource.ResourcePattern;
import org.apache.kafka.common.resource.ResourcePatternFilter;
import org.apache.kafka.common.resource.ResourceType;

/**
 * Issue 16's scenario against one secured broker ({@link SecuredBroker}), its every answer recorded by step: TLS and
 * SASL refusals, SCRAM users made by the super user (Admin API and {@code kafka-configs.sh}) and at format time,
 * ACLs (Admin API and {@code kafka-acls.sh}) granting and denying produce, consume, group and admin operations,
 * literal and prefixed, DENY over ALLOW, a certificate's principal, topic lists filtered by DESCRIBE, described and
 * deleted ACLs, and all of it again after a restart.
 */
final class SecurityScenario {
    /** The subject of alice's client certificate; her principal is {@code User:} and this. */
    static final String ALICE = "CN=alice,OU=eng,O=Krabka";

    /** The SCRAM user a format bootstraps, as {@code kafka-storage format --add-scram} takes it. */
    static final String ERIN_SCRAM = "SCRAM-SHA-256=[name=erin,password=erin-secret]";

    private static final String KAFKA = "4.4.0";

    /** Stops the broker and starts it again on its directory. */
    @FunctionalInterface
    interface Restart {
        void restart() throws Exception;
    }

    private final SecuredBroker broker;
    private final Path alice;
    private final KafkaTools tools;
    private final Path work;
    private final Map<String, String> answers = new LinkedHashMap<>();

    private SecurityScenario(SecuredBroker broker, Path alice, Path work) throws IOException {
        this.broker = broker;
        this.alice = alice;
        this.work = work;
        this.tools = new KafkaTools(work, KAFKA, List.of());
    }

    /** Runs the scenario against {@code broker}, alice's keystore at {@code alice}; returns the answers by step. */
    static Map<String, String> run(SecuredBroker broker, Path alice, Path work, Restart restart) throws Exception {
        SecurityScenario scenario = new SecurityScenario(broker, alice, work);
        scenario.connections();
        scenario.scram();
        scenario.acls();
        restart.restart();
        scenario.afterRestart();
        return scenario.answers;
    }

    private void connections() {
        answers.put("admin, PLAIN over SASL_SSL", connect(broker.admin(), CALL_TIMEOUT));
        answers.put("a truststore of another CA", connect(broker.untrustingAdmin(), REFUSED_TIMEOUT));
        answers.put("plaintext on the SASL_SSL port", connect(broker.plaintextOnSaslSslPort(), REFUSED_TIMEOUT));
        answers.put("TLS without SASL on the SASL_SSL port", connect(broker.tlsWithoutSasl(), REFUSED_TIMEOUT));
        answers.put("no certificate on the SSL port", connect(broker.tlsWithoutCertificate(), REFUSED_TIMEOUT));
        answers.put("alice's certificate on the SSL port", connect(broker.certificate(alice), CALL_TIMEOUT));
        answers.put("PLAIN, wrong password", connect(broker.sasl("PLAIN", "bob", "not-bob"), CALL_TIMEOUT));
        answers.put("PLAIN, unknown user", connect(broker.sasl("PLAIN", "nobody", "x"), CALL_TIMEOUT));
        answers.put("SCRAM user not yet made", connect(carol("SCRAM-SHA-256", "carol-secret"), CALL_TIMEOUT));
        answers.put("SCRAM user of the format", connect(erin(), CALL_TIMEOUT));
    }

    private void scram() throws Exception {
        try (Admin admin = SecuredClients.admin(broker.admin(), CALL_TIMEOUT)) {
            answers.put(
                    "admin makes carol (SCRAM-SHA-256)",
                    answer(admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(
                                    "carol",
                                    new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 8192),
                                    "carol-secret")))
                            .all()));
            ToolRun configs = configs(
                    "alter-dave",
                    "--alter",
                    "--entity-type",
                    "users",
                    "--entity-name",
                    "dave",
                    "--add-config",
                    "SCRAM-SHA-512=[iterations=8192,password=dave-secret]");
            answers.put(
                    "kafka-configs makes dave (SCRAM-SHA-512)",
                    configs.exitCode() + " " + configs.out().strip());
            // The broker learns of credentials from the metadata log after the controller committed them.
            String credentials = awaitCredentials(admin, List.of("carol", "dave", "erin"));
            answers.put("SCRAM credentials described", credentials);
        }
        ToolRun described = configs("describe-dave", "--describe", "--entity-type", "users", "--entity-name", "dave");
        answers.put(
                "kafka-configs describes dave",
                described.exitCode() + " " + described.out().strip());
        answers.put("carol, SCRAM-SHA-256", connect(carol("SCRAM-SHA-256", "carol-secret"), CALL_TIMEOUT));
        answers.put("carol, SCRAM-SHA-512 she has not", connect(carol("SCRAM-SHA-512", "carol-secret"), CALL_TIMEOUT));
        answers.put("carol, wrong password", connect(carol("SCRAM-SHA-256", "not-carol"), CALL_TIMEOUT));
        answers.put("dave, SCRAM-SHA-512", connect(dave(), CALL_TIMEOUT));
        try (Admin bob = SecuredClients.admin(bob(), CALL_TIMEOUT)) {
            answers.put(
                    "bob makes a SCRAM user",
                    answer(bob.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(
                                    "mallory", new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_256, 4096), "m")))
                            .all()));
            answers.put(
                    "bob describes SCRAM users",
                    answer(bob.describeUserScramCredentials().all()));
        }
    }

    private void acls() throws Exception {
        List<AclBinding> granted = List.of(
                acl(ResourceType.TOPIC, "orders", PatternType.LITERAL, "User:bob", AclOperation.WRITE, true),
                acl(ResourceType.TOPIC, "eng-", PatternType.PREFIXED, "User:bob", AclOperation.READ, true),
                acl(ResourceType.TOPIC, "eng-", PatternType.PREFIXED, "User:bob", AclOperation.WRITE, true),
                acl(ResourceType.TOPIC, "eng-metrics", PatternType.LITERAL, "User:bob", AclOperation.WRITE, false),
                acl(ResourceType.TOPIC, "bob-", PatternType.PREFIXED, "User:bob", AclOperation.CREATE, true),
                acl(ResourceType.TOPIC, "payments", PatternType.LITERAL, "User:" + ALICE, AclOperation.WRITE, true));
        try (Admin admin = SecuredClients.admin(broker.admin(), CALL_TIMEOUT)) {
            answers.put(
                    "admin creates topics",
                    answer(admin.createTopics(
                                    List.of("orders", "payments", "secret", "eng-logs", "eng-metrics").stream()
                                            .map(name -> new NewTopic(name, 1, (short) 1))
                                            .toList())
                            .all()));
            answers.put("admin writes to eng-metrics", produce(broker.admin(), "eng-metrics", false));
            answers.put("bob's topics, no ACL", topics(bob()));
            answers.put("bob produces to orders, no ACL", produce(bob(), "orders", false));
            try (Admin bob = SecuredClients.admin(bob(), CALL_TIMEOUT)) {
                answers.put(
                        "bob creates an ACL",
                        answer(bob.createAcls(granted.subList(0, 1)).all()));
                answers.put(
                        "bob describes ACLs",
                        answer(bob.describeAcls(AclBindingFilter.ANY).values()));
            }
            answers.put("admin creates ACLs", answer(admin.createAcls(granted).all()));
            ToolRun added = acls(
                    "add-bob-read",
                    "--add",
                    "--allow-principal",
                    "User:bob",
                    "--operation",
                    "Read",
                    "--topic",
                    "orders",
                    "--group",
                    "bob-group");
            answers.put("kafka-acls adds bob's reads", added.exitCode() + " " + sortedLines(added.out()));
            answers.put("ACLs described", awaitAcls(admin, granted.size() + 2));
            ToolRun listed = acls("list-orders", "--list", "--topic", "orders");
            answers.put("kafka-acls lists orders", listed.exitCode() + " " + sortedLines(listed.out()));
        }
        answers.put("bob produces to orders", produce(bob(), "orders", false));
        answers.put("bob produces to orders, idempotent", produce(bob(), "orders", true));
        answers.put("bob consumes orders in bob-group", consume(bob(), "orders", "bob-group", 2));
        answers.put("bob consumes orders in other-group", consume(bob(), "orders", "other-group", 2));
        answers.put("bob produces to payments", produce(bob(), "payments", false));
        answers.put("bob produces to eng-logs, prefixed ALLOW", produce(bob(), "eng-logs", false));
        answers.put("bob produces to eng-metrics, DENY over ALLOW", produce(bob(), "eng-metrics", false));
        answers.put("bob reads eng-metrics without a group", consume(bob(), "eng-metrics", null, 1));
        answers.put("bob's topics", topics(bob()));
        try (Admin bob = SecuredClients.admin(bob(), CALL_TIMEOUT)) {
            answers.put(
                    "bob describes secret",
                    answer(bob.describeTopics(List.of("secret")).allTopicNames()));
            answers.put(
                    "bob creates bob-new, prefixed CREATE",
                    answer(bob.createTopics(List.of(new NewTopic("bob-new", 1, (short) 1)))
                            .all()));
            answers.put(
                    "bob creates payments-2",
                    answer(bob.createTopics(List.of(new NewTopic("payments-2", 1, (short) 1)))
                            .all()));
            answers.put(
                    "bob deletes orders",
                    answer(bob.deleteTopics(List.of("orders")).all()));
        }
        Path bobConfig = SecuredBroker.commandConfig(work.resolve("bob.properties"), bob());
        ToolRun listed = tools.run(
                "topics-as-bob",
                List.of(
                        "org.apache.kafka.tools.TopicCommand",
                        "--bootstrap-server",
                        broker.saslSslBootstrap(),
                        "--command-config",
                        bobConfig.toString(),
                        "--list"),
                null);
        answers.put("kafka-topics lists as bob", listed.exitCode() + " " + sortedLines(listed.out()));
        answers.put("alice produces to payments", produce(broker.certificate(alice), "payments", false));
        answers.put("alice produces to orders", produce(broker.certificate(alice), "orders", false));
        answers.put("alice's topics", topics(broker.certificate(alice)));
        try (Admin admin = SecuredClients.admin(broker.admin(), CALL_TIMEOUT)) {
            answers.put(
                    "admin deletes bob's read of orders",
                    answer(
                            admin.deleteAcls(List.of(new AclBindingFilter(
                                            new ResourcePatternFilter(
                                                    ResourceType.TOPIC, "orders", PatternType.LITERAL),
                                            new AccessControlEntryFilter(
                                                    "User:bob", null, AclOperation.READ, AclPermissionType.ANY))))
                                    .all(),
                            SecurityScenario::bindings));
            answers.put("ACLs after the delete", awaitAcls(admin, granted.size() + 1));
        }
        answers.put("bob consumes orders after the delete", consume(bob(), "orders", "bob-group", 2));
    }

    private void afterRestart() throws Exception {
        try (Admin admin = SecuredClients.admin(broker.admin(), CALL_TIMEOUT)) {
            answers.put("ACLs after the restart", describeAcls(admin));
            answers.put("SCRAM credentials after the restart", credentials(admin));
        }
        answers.put("carol after the restart", connect(carol("SCRAM-SHA-256", "carol-secret"), CALL_TIMEOUT));
        answers.put("dave after the restart", connect(dave(), CALL_TIMEOUT));
        answers.put("erin after the restart", connect(erin(), CALL_TIMEOUT));
        answers.put("bob produces to orders after the restart", produce(bob(), "orders", false));
        answers.put("bob produces to eng-metrics after the restart", produce(bob(), "eng-metrics", false));
        answers.put(
                "alice produces to payments after the restart", produce(broker.certificate(alice), "payments", false));
        answers.put("bob's topics after the restart", topics(bob()));
    }

    private Map<String, Object> bob() {
        return broker.sasl("PLAIN", "bob", SecuredBroker.BOB_PASSWORD);
    }

    private Map<String, Object> carol(String mechanism, String password) {
        return broker.sasl(mechanism, "carol", password);
    }

    private Map<String, Object> dave() {
        return broker.sasl("SCRAM-SHA-512", "dave", "dave-secret");
    }

    private Map<String, Object> erin() {
        return broker.sasl("SCRAM-SHA-256", "erin", "erin-secret");
    }

    private static AclBinding acl(
            ResourceType type,
            String name,
            PatternType pattern,
            String principal,
            AclOperation operation,
            boolean allow) {
        return new AclBinding(
                new ResourcePattern(type, name, pattern),
                new AccessControlEntry(
                        principal, "*", operation, allow ? AclPermissionType.ALLOW : AclPermissionType.DENY));
    }

    // Kafka's kafka-configs and kafka-acls as the super user.
    private ToolRun configs(String name, String... args) throws Exception {
        return adminTool(name, "org.apache.kafka.tools.ConfigCommand", args);
    }

    private ToolRun acls(String name, String... args) throws Exception {
        return adminTool(name, "org.apache.kafka.tools.AclCommand", args);
    }

    private ToolRun adminTool(String name, String main, String... args) throws Exception {
        Path config = SecuredBroker.commandConfig(work.resolve("admin.properties"), broker.admin());
        List<String> command = new ArrayList<>(
                List.of(main, "--bootstrap-server", broker.saslSslBootstrap(), "--command-config", config.toString()));
        command.addAll(List.of(args));
        return tools.run(name, command, null);
    }

    // The broker's view of ACLs follows the controller's commit: asks (bounded) until it lists `count` of them.
    private static String awaitAcls(Admin admin, int count) throws InterruptedException {
        return awaitAnswer(() -> describeAcls(admin), described -> described.startsWith(count + " "));
    }

    private static String describeAcls(Admin admin) {
        return answer(admin.describeAcls(AclBindingFilter.ANY).values(), SecurityScenario::bindings);
    }

    private static String bindings(Collection<AclBinding> bindings) {
        TreeSet<String> sorted = new TreeSet<>();
        bindings.forEach(binding -> sorted.add(binding.toString()));
        return sorted.size() + " " + sorted;
    }

    private static String awaitCredentials(Admin admin, List<String> users) throws InterruptedException {
        return awaitAnswer(() -> credentials(admin), described -> users.stream().allMatch(described::contains));
    }

    private static String credentials(Admin admin) {
        return answer(admin.describeUserScramCredentials().all(), users -> {
            TreeSet<String> sorted = new TreeSet<>();
            users.forEach((user, description) -> description
                    .credentialInfos()
                    .forEach(info -> sorted.add(user + " " + info.mechanism() + " " + info.iterations())));
            return String.valueOf(sorted);
        });
    }

    // Asks again until the answer is the one awaited or an error (which ends the wait: it is the answer), within
    // the call timeout.
    private static String awaitAnswer(Supplier<String> ask, Predicate<String> awaited) throws InterruptedException {
        long deadline = System.nanoTime() + CALL_TIMEOUT.toNanos();
        String answer = ask.get();
        while (!awaited.test(answer) && !answer.contains("Exception") && System.nanoTime() < deadline) {
            Thread.sleep(100);
            answer = ask.get();
        }
        return answer;
    }
}
