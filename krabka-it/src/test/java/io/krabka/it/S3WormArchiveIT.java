package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.testservers.RadosgwBuckets;
import io.krabka.testservers.S3Server;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The write-once archive on Ceph radosgw, which enforces S3 Object Lock in COMPLIANCE mode: the broker archives into
 * a locked bucket through the {@code worm} plugin over the {@code s3} store, {@code krabka verify} proves it from
 * the bucket with the SDK's default credentials, {@code krabka restore} restores it authenticated from the bucket into
 * a directory Krabka serves, and a bucket without Object Lock stops the broker at start.
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
                "rsm.config.store.checksum.calculation",
                        server.checksumWhenRequired() ? "when_required" : "when_supported"));
        return settings;
    }

    @Test
    void aBrokerArchivesIntoALockedBucketThatVerifyProvesFromTheBucket() throws Exception {
        WormKeys keys = WormKeys.generate(work.resolve("keys"), "worm-s3");
        TopicPartition partition = new TopicPartition("trades", 0);
        long records = TieredRecords.count(3);
        try (KrabkaBroker broker = KrabkaBroker.start(work.resolve("broker"), settings(LOCKED, keys))) {
            WormArchive.archiveOnePartition(broker, partition, records);
        }
        S3Server server = LOCKED.server();
        Map<String, String> credentials =
                Map.of("AWS_ACCESS_KEY_ID", server.accessKeyId(), "AWS_SECRET_ACCESS_KEY", server.secretAccessKey());
        KrabkaCommand krabka = new KrabkaCommand(work.resolve("runs"));
        for (boolean deep : List.of(false, true)) {
            List<String> args = new ArrayList<>(List.of(
                    "verify",
                    "--bucket",
                    LOCKED.bucket(),
                    "--endpoint",
                    server.endpoint().toString(),
                    "--allow-http",
                    "--path-style",
                    "--prefix",
                    PREFIX,
                    "--key-id",
                    keys.id(),
                    "--public-key",
                    keys.publicKey().toString()));
            if (deep) {
                args.add("--deep");
            }
            ToolRun run = krabka.run(credentials, args.toArray(String[]::new));
            assertEquals(0, run.exitCode(), run.describe());
            assertTrue(run.out().contains("OK: ") && run.out().contains("COMPLIANCE"), run.describe());
        }
        WormArchive.assertRestoresAuthenticated(
                krabka,
                work,
                keys,
                partition,
                "--archive-s3-bucket",
                LOCKED.bucket(),
                "--archive-s3-endpoint",
                server.endpoint().toString(),
                "--archive-s3-allow-http",
                "--archive-s3-access-key-id",
                server.accessKeyId(),
                "--archive-s3-secret-access-key",
                server.secretAccessKey(),
                "--archive-prefix",
                PREFIX);
    }

    @Test
    void aBucketWithoutObjectLockStopsTheBrokerInOneLineNamingIt() throws Exception {
        WormKeys keys = WormKeys.generate(work.resolve("keys"), "worm-s3");
        String refusal = WormArchive.refusedStart(
                new KrabkaCommand(work.resolve("runs")), work.resolve("data"), settings(PLAIN, keys));
        assertTrue(refusal.contains("s3://" + PLAIN.bucket()) && refusal.contains("retention"), refusal);
    }
}
