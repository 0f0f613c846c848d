package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Dynamic broker configs and group configs on Krabka against Kafka 4.4, the same scenario on both: Kafka's own
 * {@code kafka-configs.sh} (ConfigCommand) changes dynamic keys at the cluster level ({@code --entity-default}) and
 * for broker 1, describes them with their sources, is refused a read-only key, sets and describes group configs and
 * tells a group without configs; the Admin client is refused per-broker keys at the cluster level, security keys
 * without a listener, bad values, thread counts beyond double or below half and bad group configs, and describes the
 * broker keys with their synonyms; after a restart of each broker everything is described again. Every answer and the
 * tool's output must be Kafka's.
 */
@ResourceLock(ReferenceKafka.BROKER_LOCK)
class DynamicConfigsAgainstKafkaIT {
    private static final String KAFKA = "4.4.0";
    /** A static group coordinator key, to see it described as the group configs' synonym. */
    private static final Map<String, String> SETTINGS = Map.of("group.consumer.heartbeat.interval.ms", "6000");
    /** The broker keys described through the Admin client: their values and synonyms must be Kafka's. */
    private static final List<String> BROKER_KEYS = List.of(
            "message.max.bytes",
            "log.cleaner.threads",
            "log.cleaner.io.buffer.load.factor",
            "log.retention.ms",
            "log.retention.hours",
            "background.threads",
            "num.recovery.threads.per.data.dir",
            "num.io.threads",
            "max.connections",
            "producer.id.expiration.ms",
            "min.insync.replicas");

    @TempDir
    Path dir;

    @Test
    void krabkaAnswersAsKafka() throws Exception {
        Map<String, String> kafka;
        ReferenceKafka reference = ReferenceKafka.start(KAFKA, dir.resolve("kafka"), SETTINGS);
        try {
            kafka = scenario(reference::bootstrapServers, dir.resolve("kafka-tools"), () -> {
                reference.close();
                reference.restart();
            });
        } finally {
            reference.close();
        }
        assertTrue(kafka.get("alter default").contains("Completed updating default config"), kafka.toString());
        Map<String, String> krabka;
        try (KrabkaBroker broker = KrabkaBroker.start(dir.resolve("krabka"), SETTINGS)) {
            krabka = scenario(broker::bootstrapServers, dir.resolve("krabka-tools"), () -> {
                broker.stop();
                broker.start();
            });
        }
        SideBySide.assertSameAnswers(kafka, krabka);
    }

    /** A restart of the broker under test. */
    @FunctionalInterface
    private interface Restart {
        void run() throws Exception;
    }

    private static Map<String, String> scenario(Supplier<String> bootstrap, Path work, Restart restart)
            throws Exception {
        Map<String, String> answers = new LinkedHashMap<>();
        // Each run is a JVM of its own: the interpreter and the first JIT tier start it soonest.
        KafkaTools tools = new KafkaTools(work, KAFKA, List.of("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC"));
        ConfigCommand configs = new ConfigCommand(tools, bootstrap);
        answers.put(
                "alter default",
                configs.run(
                        "alter-default",
                        "--alter",
                        "--entity-type",
                        "brokers",
                        "--entity-default",
                        "--add-config",
                        "log.cleaner.threads=2,log.cleaner.io.buffer.load.factor=0.8,message.max.bytes=1500000"));
        answers.put(
                "alter broker",
                configs.run(
                        "alter-broker",
                        "--alter",
                        "--entity-type",
                        "brokers",
                        "--entity-name",
                        "1",
                        "--add-config",
                        "message.max.bytes=2000000,log.retention.ms=86400000,background.threads=12"));
        answers.put(
                "read-only key",
                configs.run(
                        "read-only",
                        "--alter",
                        "--entity-type",
                        "brokers",
                        "--entity-default",
                        "--add-config",
                        "node.id=3"));
        answers.put(
                "alter group",
                configs.run(
                        "alter-group",
                        "--alter",
                        "--entity-type",
                        "groups",
                        "--entity-name",
                        "payments",
                        "--add-config",
                        "consumer.session.timeout.ms=50000,share.isolation.level=read_committed"));
        answers.put(
                "group without configs",
                configs.run("group-none", "--describe", "--entity-type", "groups", "--entity-name", "audits"));
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap.get()))) {
            ConfigResource cluster = new ConfigResource(ConfigResource.Type.BROKER, "");
            ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, "1");
            ConfigResource group = new ConfigResource(ConfigResource.Type.GROUP, "payments");
            answers.put("per-broker key at the cluster level", set(admin, cluster, "listeners", "PLAINTEXT://:1"));
            answers.put("security key without a listener", set(admin, broker, "ssl.keystore.type", "JKS"));
            answers.put("not a number", set(admin, broker, "message.max.bytes", "abc"));
            answers.put("threads beyond double", set(admin, cluster, "background.threads", "100"));
            answers.put("threads below half", set(admin, broker, "background.threads", "5"));
            answers.put("cleaner threads beyond double", set(admin, broker, "log.cleaner.threads", "5"));
            // Refused before the change: Kafka checks against the count its broker has applied, which lags the
            // answer to a change.
            answers.put("io threads beyond double", set(admin, broker, "num.io.threads", "40"));
            answers.put("io threads", set(admin, broker, "num.io.threads", "16"));
            answers.put("group value out of bounds", set(admin, group, "consumer.session.timeout.ms", "1000"));
            answers.put(
                    "group heartbeat over its session", set(admin, group, "consumer.heartbeat.interval.ms", "15000"));
            answers.put("unknown group config", set(admin, group, "colour", "blue"));
            answers.put("a group config of the wrong type", set(admin, group, "share.renew.acknowledge.enable", "yes"));
        }
        describe(configs, bootstrap, answers, "");

        restart.run();
        describe(configs, bootstrap, answers, "after a restart: ");
        return answers;
    }

    private static void describe(
            ConfigCommand configs, Supplier<String> bootstrap, Map<String, String> answers, String when)
            throws Exception {
        answers.put(
                when + "describe broker 1",
                configs.run("describe-broker", "--describe", "--entity-type", "brokers", "--entity-name", "1"));
        if (when.isEmpty()) {
            answers.put(
                    "describe default",
                    configs.run("describe-default", "--describe", "--entity-type", "brokers", "--entity-default"));
            answers.put(
                    "describe group, all",
                    configs.run(
                            "describe-group-all",
                            "--describe",
                            "--entity-type",
                            "groups",
                            "--entity-name",
                            "payments",
                            "--all"));
        } else {
            answers.put(
                    when + "describe group",
                    configs.run(
                            "describe-group", "--describe", "--entity-type", "groups", "--entity-name", "payments"));
        }
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap.get()))) {
            ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, "1");
            Config described = admin.describeConfigs(
                            List.of(broker), new DescribeConfigsOptions().includeSynonyms(true))
                    .all()
                    .get(1, TimeUnit.MINUTES)
                    .get(broker);
            for (String key : BROKER_KEYS) {
                answers.put(when + "admin: " + key, line(described.get(key)));
            }
            ConfigResource group = new ConfigResource(ConfigResource.Type.GROUP, "");
            answers.put(
                    when + "admin: an empty group name",
                    outcome(() -> admin.describeConfigs(List.of(group)).all().get(1, TimeUnit.MINUTES)));
            answers.put(
                    when + "admin: delete a group config",
                    outcome(() -> admin.incrementalAlterConfigs(Map.of(
                                    new ConfigResource(ConfigResource.Type.GROUP, "payments"),
                                    List.of(new AlterConfigOp(
                                            new ConfigEntry("share.isolation.level", null),
                                            AlterConfigOp.OpType.DELETE))))
                            .all()
                            .get(1, TimeUnit.MINUTES)));
        }
    }

    private static String set(Admin admin, ConfigResource resource, String key, String value) {
        return outcome(() -> admin.incrementalAlterConfigs(Map.of(
                        resource, List.of(new AlterConfigOp(new ConfigEntry(key, value), AlterConfigOp.OpType.SET))))
                .all()
                .get(1, TimeUnit.MINUTES));
    }

    private static String line(ConfigEntry e) {
        return e == null
                ? "absent"
                : e.value() + "|" + e.source() + "|" + e.isSensitive() + "|" + e.isReadOnly() + "|" + e.type() + "|"
                        + e.synonyms();
    }

    /** A call's outcome: OK, or its error's class and message. */
    private static String outcome(Call call) {
        try {
            call.run();
            return "OK";
        } catch (ExecutionException e) {
            return e.getCause().getClass().getSimpleName() + ": " + e.getCause().getMessage();
        } catch (Exception e) {
            return e.toString();
        }
    }

    @FunctionalInterface
    private interface Call {
        void run() throws Exception;
    }

    /** Kafka's {@code kafka-configs.sh} on one broker: its output, or the error it ends with. */
    private record ConfigCommand(KafkaTools tools, Supplier<String> bootstrap) {
        String run(String name, String... args) throws Exception {
            List<String> command = new ArrayList<>(
                    List.of("org.apache.kafka.tools.ConfigCommand", "--bootstrap-server", bootstrap.get()));
            command.addAll(List.of(args));
            ToolRun run = tools.run(name, command, null);
            if (run.exitCode() == 0) {
                return run.out().strip();
            }
            // The first line repeats the arguments, the broker's address among them; the cause is what answers.
            return (run.out() + run.err())
                    .lines()
                    .filter(line -> line.startsWith("java.util.concurrent.ExecutionException: "))
                    .findFirst()
                    .orElse("exit " + run.exitCode() + ": "
                            + run.err().lines().findFirst().orElse(""));
        }
    }
}
