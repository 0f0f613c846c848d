package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.testservers.RadosgwBuckets;
import io.krabka.testservers.S3Server;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The write-once archive on Ceph radosgw, which enforces S3 Object Lock in COMPLIANCE mode: the broker archives into
 * a locked bucket through the {@code worm} plugin over the {@code s3} store, {@code krabka verify} proves it from
 * the bucket with the SDK's default credentials, and a bucket without Object Lock stops the broker at start.
 */
class S3WormArchiveIT {
    private static final String PREFIX = "krabka-it";

    @RegisterExtension
    static final RadosgwBuckets LOCKED = RadosgwBuckets.complianceLocked(1);
    @RegisterExtension
    static final RadosgwBuckets PLAIN = new RadosgwBuckets();

    @TempDir
    Path work;

    private static Map<String, String> settings(RadosgwBuckets buckets, WormKeys keys) {
        S3Server server = buckets.server();
        Map<String, String> settings = new HashMap<>(Map.of(
                "remote.log.storage.system.enable", "true",
                "remote.log.storage.manager.class.name", "worm",
                "remote.log.metadata.manager.class.name", "inmemory",
                "remote.log.metadata.custom.metadata.max.bytes", "1024",
                "remote.log.manager.task.interval.ms", "500",
                "rsm.config.store", "s3",
                "rsm.config.prefix", PREFIX,
                "rsm.config.min.retention.days", "1",
                "rsm.config.signing.key.path", keys.privateKey().toString(),
                "rsm.config.signing.key.id", keys.id()));
        settings.putAll(Map.of(
                "rsm.config.store.bucket", buckets.bucket(),
                "rsm.config.store.endpoint", server.endpoint().toString(),
                "rsm.config.store.allow.http", "true",
                "rsm.config.store.path.style.access", "true",
                "rsm.config.store.access.key.id", server.accessKeyId(),
                "rsm.config.store.secret.access.key", server.secretAccessKey(),
                "rsm.config.store.checksum.calculation", server.checksumWhenRequired() ? "when_required" : "when_supported"));
        return settings;
    }

    @Test
    void aBrokerArchivesIntoALockedBucketThatVerifyProvesFromTheBucket() throws Exception {
        WormKeys keys = WormKeys.generate(work.resolve("keys"), "worm-s3");
        TopicPartition partition = new TopicPartition("trades", 0);
        long records = TieredRecords.count(3);
        try (KrabkaBroker broker = KrabkaBroker.start(work.resolve("broker"), settings(LOCKED, keys))) {
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
                admin.createTopics(List.of(new NewTopic(partition.topic(), 1, (short) 1).configs(Map.of(
                        "remote.storage.enable", "true", "local.retention.bytes", "1", "segment.bytes", "1048576"))))
                        .all().get(1, TimeUnit.MINUTES);
            }
            TieredRecords.produce(broker.bootstrapServers(), partition, 0, records, n -> System.currentTimeMillis());
            WormArchive.awaitArchived(broker, List.of(partition), 2);
            TieredRecords.assertReadsExactly(broker.bootstrapServers(), partition, 0, records);
        }
        S3Server server = LOCKED.server();
        Map<String, String> credentials = Map.of("AWS_ACCESS_KEY_ID", server.accessKeyId(),
                "AWS_SECRET_ACCESS_KEY", server.secretAccessKey());
        KrabkaCommand krabka = new KrabkaCommand(work.resolve("runs"));
        for (String depth : List.of("--prefix", "--deep")) {
            List<String> args = new ArrayList<>(List.of("verify", "--bucket", LOCKED.bucket(), "--endpoint",
                    server.endpoint().toString(), "--allow-http", "--path-style", "--prefix", PREFIX,
                    "--key-id", keys.id(), "--public-key", keys.publicKey().toString()));
            if (depth.equals("--deep")) {
                args.add("--deep");
            }
            ToolRun run = krabka.run(credentials, args.toArray(String[]::new));
            assertEquals(0, run.exitCode(), run.describe());
            assertTrue(run.out().contains("OK: ") && run.out().contains("COMPLIANCE"), run.describe());
        }
    }

    @Test
    void aBucketWithoutObjectLockStopsTheBrokerInOneLineNamingIt() throws Exception {
        WormKeys keys = WormKeys.generate(work.resolve("keys"), "worm-s3");
        KrabkaCommand krabka = new KrabkaCommand(work.resolve("runs"));
        Path logDir = Files.createDirectories(work.resolve("data"));
        assertEquals(0, krabka.run("format", "--log-dir", logDir.toString(), "--node-id", "1", "--standalone")
                .exitCode());
        List<String> args = new ArrayList<>(List.of("broker", "--log-dir", logDir.toString(),
                "--listen-addr", "127.0.0.1:0", "--health-listen-addr", "127.0.0.1:0"));
        settings(PLAIN, keys).forEach((key, value) -> args.addAll(List.of("--override", key + "=" + value)));
        ToolRun refused = krabka.run(args.toArray(String[]::new));
        assertEquals(2, refused.exitCode(), refused.describe());
        List<String> lines = refused.err().strip().lines().filter(l -> l.startsWith("krabka broker:")).toList();
        assertEquals(1, lines.size(), refused.describe());
        assertTrue(lines.getFirst().contains("s3://" + PLAIN.bucket()) && lines.getFirst().contains("retention"),
                refused.describe());
    }
}
