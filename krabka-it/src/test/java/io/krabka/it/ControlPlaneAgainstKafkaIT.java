package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.CreatePartitionsOptions;
import org.apache.kafka.clients.admin.CreateTopicsOptions;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.NewPartitions;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.TopicCollection;
import org.apache.kafka.common.Uuid;
import org.apache.kafka.common.config.ConfigResource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.ResourceLock;

/**
 * Krabka's control plane against a Kafka 4.4 broker: the same AdminClient scenario runs on both (topics created,
 * refused, described, altered, grown and deleted; topic and broker configs described), and every answer must be
 * Kafka's, but for the differences listed in {@link #KNOWN_DIFFERENCES}.
 */
@ResourceLock(ReferenceKafka.BROKER_LOCK)
class ControlPlaneAgainstKafkaIT {

    /**
     * Answers where only the error class is compared: the value checks of topic configs name the key and value as
     * Krabka's config layer words them, not as Kafka's ConfigDef does (the code is Kafka's INVALID_CONFIG).
     */
    private static final Set<String> KNOWN_DIFFERENCES =
            Set.of("create cfg", "create cfg3", "create cfg4", "alter bad value");

    private static final Map<String, String> SERVER_PROPERTIES = Map.of("num.partitions", "1");

    @TempDir
    Path dir;

    @Test
    void krabkaAnswersAsKafka() throws Exception {
        Map<String, String> kafka;
        try (ReferenceKafka reference = ReferenceKafka.start("4.4.0", dir.resolve("kafka"), Map.of())) {
            kafka = scenario(reference.bootstrapServers());
        }
        Map<String, String> krabka;
        try (KrabkaControlPlane plane = KrabkaControlPlane.start(dir.resolve("krabka"), SERVER_PROPERTIES)) {
            krabka = scenario(plane.bootstrapServers());
        }
        assertEquals(kafka.keySet(), krabka.keySet());
        List<String> differences = new ArrayList<>();
        kafka.forEach((step, theirs) -> {
            String ours = krabka.get(step);
            boolean same = KNOWN_DIFFERENCES.contains(step)
                    ? errorClass(theirs).equals(errorClass(ours))
                    : theirs.equals(ours);
            if (!same) {
                differences.add(step + "\n  Kafka:  " + theirs + "\n  Krabka: " + ours);
            }
        });
        assertEquals(List.of(), differences);
    }

    @Test
    void kafkaDumpLogDecodesKrabkasMetadataLog() throws Exception {
        Path krabka = dir.resolve("krabka");
        try (KrabkaControlPlane plane = KrabkaControlPlane.start(krabka, SERVER_PROPERTIES)) {
            scenario(plane.bootstrapServers());
        }
        Path segment = krabka.resolve("__cluster_metadata-0").resolve("00000000000000000000.log");
        ToolRun dump = ToolRun.run(
                dir.resolve("dump"),
                "dump-metadata",
                List.of(
                        Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                        "-cp",
                        ReferenceKafka.libs(DumpLogSegments.KAFKA_VERSION) + "/*",
                        "org.apache.kafka.tools.DumpLogSegments",
                        "--cluster-metadata-decoder",
                        "--files",
                        segment.toString()));
        assertEquals(0, dump.exitCode(), dump.describe());
        List<String> payloads =
                dump.out().lines().filter(line -> line.contains(" payload: ")).toList();
        List<String> batches = dump.out()
                .lines()
                .filter(line -> line.startsWith("baseOffset: "))
                .toList();
        assertTrue(
                !batches.isEmpty() && batches.stream().allMatch(line -> line.contains("isvalid: true")),
                dump.describe());
        assertFalse(dump.out().contains("Exception") || dump.err().contains("Exception"), dump.describe());
        String lastBatch = batches.getLast();
        long lastOffset = Long.parseLong(lastBatch.replaceAll(".*lastOffset: (\\d+).*", "$1"));
        assertEquals(lastOffset + 1, payloads.size(), "every record decoded: " + dump.describe());
        for (String type : List.of(
                "FEATURE_LEVEL_RECORD", "TOPIC_RECORD", "PARTITION_RECORD", "CONFIG_RECORD", "REMOVE_TOPIC_RECORD")) {
            assertTrue(
                    payloads.stream().anyMatch(line -> line.contains("\"type\":\"" + type + "\"")),
                    type + "\n" + dump.describe());
        }
        assertTrue(payloads.stream().anyMatch(line -> line.contains("\"name\":\"withcfg\"")), dump.describe());
    }

    /** The scenario's answers by step, as text. */
    private static Map<String, String> scenario(String bootstrapServers) throws Exception {
        Map<String, String> answers = new LinkedHashMap<>();
        try (Admin admin =
                Admin.create(Map.of("bootstrap.servers", bootstrapServers, "default.api.timeout.ms", 30000))) {
            CreateTopicsResult created = admin.createTopics(List.of(
                    new NewTopic("probe", 3, (short) 1),
                    new NewTopic("bad name", 1, (short) 1),
                    new NewTopic("a.b", 1, (short) 1),
                    new NewTopic("rf3", 1, (short) 3),
                    new NewTopic("rf0", 1, (short) 0),
                    new NewTopic("p0", 0, (short) 1),
                    new NewTopic("pneg", -5, (short) 1),
                    new NewTopic("cfg", 1, (short) 1).configs(Map.of("retention.ms", "abc")),
                    new NewTopic("cfg2", 1, (short) 1).configs(Map.of("no.such.config", "1")),
                    new NewTopic("cfg3", 1, (short) 1)
                            .configs(Map.of("min.compaction.lag.ms", "10", "max.compaction.lag.ms", "5")),
                    new NewTopic("cfg4", 1, (short) 1).configs(Map.of("cleanup.policy", "foo")),
                    new NewTopic("x".repeat(250), 1, (short) 1),
                    new NewTopic("dflt", Optional.empty(), Optional.empty()),
                    new NewTopic("withcfg", 2, (short) 1)
                            .configs(Map.of("retention.ms", "1000", "cleanup.policy", "compact"))));
            created.values()
                    .forEach((name, future) ->
                            answers.put("create " + (name.length() > 20 ? "long" : name), outcome(future)));
            answers.put(
                    "created config withcfg",
                    configLines(created.config("withcfg").get()));
            answers.put(
                    "created partitions withcfg",
                    String.valueOf(created.numPartitions("withcfg").get()));
            answers.put(
                    "exists",
                    outcome(admin.createTopics(List.of(new NewTopic("probe", 1, (short) 1)))
                            .all()));
            answers.put(
                    "collide",
                    outcome(admin.createTopics(List.of(new NewTopic("a_b", 1, (short) 1)))
                            .all()));
            answers.put(
                    "assign",
                    outcome(admin.createTopics(List.of(new NewTopic("assign", Map.of(0, List.of(1), 1, List.of(1)))))
                            .all()));
            answers.put(
                    "assign gap",
                    outcome(admin.createTopics(List.of(new NewTopic("assign2", Map.of(0, List.of(1), 2, List.of(1)))))
                            .all()));
            answers.put(
                    "assign broker",
                    outcome(admin.createTopics(List.of(new NewTopic("assign3", Map.of(0, List.of(7)))))
                            .all()));
            answers.put(
                    "assign empty",
                    outcome(admin.createTopics(List.of(new NewTopic("assign4", Map.of(0, List.<Integer>of()))))
                            .all()));
            answers.put(
                    "assign twice",
                    outcome(admin.createTopics(List.of(new NewTopic("assign5", Map.of(0, List.of(1, 1)))))
                            .all()));
            answers.put(
                    "validate only",
                    outcome(admin.createTopics(
                                    List.of(new NewTopic("vo", 2, (short) 1)),
                                    new CreateTopicsOptions().validateOnly(true))
                            .all()));

            answers.put("describe a.b", describe(admin, "a.b"));
            answers.put("describe withcfg", describe(admin, "withcfg"));
            ConfigResource probe = new ConfigResource(ConfigResource.Type.TOPIC, "probe");
            answers.put("alter set", alter(admin, probe, "retention.ms", "5000", AlterConfigOp.OpType.SET));
            answers.put("alter bad value", alter(admin, probe, "retention.ms", "x", AlterConfigOp.OpType.SET));
            answers.put("alter unknown key", alter(admin, probe, "foo.bar", "x", AlterConfigOp.OpType.SET));
            answers.put("alter append non-list", alter(admin, probe, "retention.ms", "1", AlterConfigOp.OpType.APPEND));
            answers.put(
                    "alter append list", alter(admin, probe, "cleanup.policy", "compact", AlterConfigOp.OpType.APPEND));
            answers.put(
                    "alter unknown topic",
                    alter(
                            admin,
                            new ConfigResource(ConfigResource.Type.TOPIC, "nope"),
                            "retention.ms",
                            "1",
                            AlterConfigOp.OpType.SET));
            answers.put(
                    "alter bad topic",
                    alter(
                            admin,
                            new ConfigResource(ConfigResource.Type.TOPIC, "bad name"),
                            "retention.ms",
                            "1",
                            AlterConfigOp.OpType.SET));
            answers.put(
                    "alter default topic",
                    alter(
                            admin,
                            new ConfigResource(ConfigResource.Type.TOPIC, ""),
                            "retention.ms",
                            "1",
                            AlterConfigOp.OpType.SET));
            answers.put("alter delete", alter(admin, probe, "segment.ms", null, AlterConfigOp.OpType.DELETE));
            answers.put("describe probe", describe(admin, "probe"));
            for (String name : List.of("nope", "bad name", "")) {
                answers.put(
                        "describe '" + name + "'",
                        outcome(admin.describeConfigs(List.of(new ConfigResource(ConfigResource.Type.TOPIC, name)))
                                .all()));
            }

            answers.put(
                    "grow same",
                    outcome(admin.createPartitions(Map.of("probe", NewPartitions.increaseTo(3)))
                            .all()));
            answers.put(
                    "grow less",
                    outcome(admin.createPartitions(Map.of("probe", NewPartitions.increaseTo(2)))
                            .all()));
            answers.put(
                    "grow unknown",
                    outcome(admin.createPartitions(Map.of("nope", NewPartitions.increaseTo(2)))
                            .all()));
            answers.put(
                    "grow assign count",
                    outcome(admin.createPartitions(Map.of("probe", NewPartitions.increaseTo(5, List.of(List.of(1)))))
                            .all()));
            answers.put(
                    "grow assign twice",
                    outcome(admin.createPartitions(Map.of("probe", NewPartitions.increaseTo(4, List.of(List.of(1, 1)))))
                            .all()));
            answers.put(
                    "grow assign broker",
                    outcome(admin.createPartitions(Map.of("probe", NewPartitions.increaseTo(4, List.of(List.of(5)))))
                            .all()));
            answers.put(
                    "grow validate only",
                    outcome(admin.createPartitions(
                                    Map.of("probe", NewPartitions.increaseTo(9)),
                                    new CreatePartitionsOptions().validateOnly(true))
                            .all()));
            answers.put(
                    "grow",
                    outcome(admin.createPartitions(Map.of("probe", NewPartitions.increaseTo(4)))
                            .all()));
            answers.put(
                    "grow bad name",
                    outcome(admin.createPartitions(Map.of("bad name", NewPartitions.increaseTo(4)))
                            .all()));

            answers.put(
                    "delete unknown",
                    outcome(admin.deleteTopics(List.of("nope")).all()));
            answers.put(
                    "delete bad name",
                    outcome(admin.deleteTopics(List.of("bad name")).all()));
            answers.put(
                    "delete unknown id",
                    outcome(admin.deleteTopics(TopicCollection.ofTopicIds(List.of(Uuid.randomUuid())))
                            .all()));
            answers.put("delete", outcome(admin.deleteTopics(List.of("dflt")).all()));

            answers.put(
                    "cluster nodes",
                    String.valueOf(admin.describeCluster().nodes().get().size()));
            answers.put(
                    "cluster controller",
                    String.valueOf(admin.describeCluster().controller().get().id()));
            answers.put("broker configs", brokerConfigs(admin));
        }
        return answers;
    }

    /**
     * A topic's configs once two reads agree: Kafka's broker answers from a metadata cache that follows its
     * controller's commits a moment later.
     */
    private static String describe(Admin admin, String topic) throws Exception {
        ConfigResource resource = new ConfigResource(ConfigResource.Type.TOPIC, topic);
        String previous = null;
        for (int attempt = 0; attempt < 20; attempt++) {
            String current = configLines(
                    admin.describeConfigs(List.of(resource), new DescribeConfigsOptions().includeSynonyms(true))
                            .all()
                            .get()
                            .get(resource));
            if (current.equals(previous)) {
                return current;
            }
            previous = current;
            Thread.sleep(250);
        }
        return previous;
    }

    /** The broker keys Krabka describes, as both describe them (Kafka describes many more, which are not compared). */
    private static String brokerConfigs(Admin admin) throws Exception {
        ConfigResource broker = new ConfigResource(ConfigResource.Type.BROKER, "1");
        Config config = admin.describeConfigs(List.of(broker), new DescribeConfigsOptions().includeSynonyms(true))
                .all()
                .get()
                .get(broker);
        List<String> lines = new ArrayList<>();
        for (ConfigEntry entry : config.entries()) {
            if (BROKER_KEYS.contains(entry.name())) {
                lines.add(line(entry));
            }
        }
        return String.join("\n", lines.stream().sorted().toList());
    }

    /** The broker keys behind topic configs. */
    private static final Set<String> BROKER_KEYS = Set.of(
            "log.segment.bytes",
            "log.roll.ms",
            "log.roll.hours",
            "log.roll.jitter.ms",
            "log.roll.jitter.hours",
            "log.index.size.max.bytes",
            "log.flush.interval.messages",
            "log.flush.interval.ms",
            "log.flush.scheduler.interval.ms",
            "log.retention.bytes",
            "log.retention.ms",
            "log.retention.minutes",
            "log.retention.hours",
            "message.max.bytes",
            "max.decompressed.message.bytes",
            "log.index.interval.bytes",
            "log.cleaner.delete.retention.ms",
            "log.cleaner.min.compaction.lag.ms",
            "log.cleaner.max.compaction.lag.ms",
            "log.segment.delete.delay.ms",
            "log.cleaner.min.cleanable.ratio",
            "log.cleanup.policy",
            "unclean.leader.election.enable",
            "min.insync.replicas",
            "compression.type",
            "compression.gzip.level",
            "compression.lz4.level",
            "compression.zstd.level",
            "log.preallocate",
            "log.message.timestamp.type",
            "log.message.timestamp.before.max.ms",
            "log.message.timestamp.after.max.ms",
            "log.local.retention.ms",
            "log.local.retention.bytes",
            "log.remote.copy.lag.ms",
            "log.remote.copy.lag.bytes");

    private static String alter(
            Admin admin, ConfigResource resource, String key, String value, AlterConfigOp.OpType op) {
        return outcome(admin.incrementalAlterConfigs(
                        Map.of(resource, List.of(new AlterConfigOp(new ConfigEntry(key, value), op))))
                .all());
    }

    private static String configLines(Config config) {
        Collection<ConfigEntry> entries = config.entries();
        return String.join(
                "\n",
                entries.stream().map(ControlPlaneAgainstKafkaIT::line).sorted().toList());
    }

    private static String line(ConfigEntry e) {
        return e.name() + "|" + e.value() + "|" + e.source() + "|" + e.isSensitive() + "|" + e.isReadOnly() + "|"
                + e.type() + "|" + e.synonyms();
    }

    private static String outcome(KafkaFuture<?> future) {
        try {
            future.get(60, TimeUnit.SECONDS);
            return "OK";
        } catch (ExecutionException e) {
            return e.getCause().getClass().getSimpleName() + ": " + e.getCause().getMessage();
        } catch (Exception e) {
            return e.toString();
        }
    }

    private static String errorClass(String answer) {
        int colon = answer.indexOf(':');
        return colon < 0 ? answer : answer.substring(0, colon);
    }
}
