package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.krabka.fixture.gcs.GcsFixture;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The write-once archive through the {@code gcs} store on the project's GCS JSON API fixture (not Google's service):
 * a bucket whose retention policy is locked (Bucket Lock) holds the archive, which {@code krabka verify --gcs-bucket}
 * proves and {@code krabka restore --archive-gcs-bucket} restores authenticated; a bucket whose policy is not locked
 * stops the broker at start.
 */
class GcsWormArchiveIT {
    private static final String LOCKED = "krabka-it-worm-locked";
    private static final String UNLOCKED = "krabka-it-worm-unlocked";
    private static final String PREFIX = "krabka-it";
    private static GcsFixture fixture;

    @TempDir
    Path work;

    @BeforeAll
    static void startFixture() throws Exception {
        fixture = GcsFixture.start();
        fixture.createBucket(LOCKED, false, Duration.ofDays(2));
        fixture.createBucket(UNLOCKED, false, Duration.ofDays(2));
        lock(LOCKED);
    }

    @AfterAll
    static void stopFixture() {
        fixture.close();
    }

    /** Bucket Lock through the JSON API, as {@code gcloud storage buckets update --lock-retention-period} does. */
    private static void lock(String bucket) throws Exception {
        try (HttpClient http = HttpClient.newHttpClient()) {
            HttpResponse<String> metadata = http.send(
                    HttpRequest.newBuilder(URI.create(fixture.endpoint() + "/storage/v1/b/" + bucket))
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            long metageneration = new ObjectMapper()
                    .readTree(metadata.body())
                    .path("metageneration")
                    .asLong();
            HttpResponse<String> locked = http.send(
                    HttpRequest.newBuilder(URI.create(fixture.endpoint() + "/storage/v1/b/" + bucket
                                    + "/lockRetentionPolicy?ifMetagenerationMatch=" + metageneration))
                            .POST(HttpRequest.BodyPublishers.noBody())
                            .build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, locked.statusCode(), locked.body());
        }
    }

    private static Map<String, String> settings(String bucket, WormKeys keys) {
        Map<String, String> settings = new HashMap<>(Map.of(
                "remote.log.storage.system.enable", "true",
                "remote.log.storage.manager.class.name", "worm",
                "remote.log.metadata.manager.class.name", "inmemory",
                "remote.log.metadata.custom.metadata.max.bytes", "1024",
                "remote.log.manager.task.interval.ms", "500",
                "rsm.config.store", "gcs",
                "rsm.config.prefix", PREFIX,
                "rsm.config.min.retention.days", "1",
                "rsm.config.signing.key.path", keys.privateKey().toString(),
                "rsm.config.signing.key.id", keys.id()));
        settings.putAll(Map.of(
                "rsm.config.store.bucket",
                bucket,
                "rsm.config.store.endpoint",
                fixture.endpoint(),
                "rsm.config.store.no.credentials",
                "true",
                "rsm.config.store.project.id",
                "krabka-it"));
        return settings;
    }

    @Test
    void aBrokerArchivesIntoALockedBucketThatVerifyProves() throws Exception {
        WormKeys keys = WormKeys.generate(work.resolve("keys"), "worm-gcs");
        TopicPartition partition = new TopicPartition("payments", 0);
        long records = TieredRecords.count(3);
        try (KrabkaBroker broker = KrabkaBroker.start(work.resolve("broker"), settings(LOCKED, keys))) {
            WormArchive.archiveOnePartition(broker, partition, records);
        }
        KrabkaCommand krabka = new KrabkaCommand(work.resolve("runs"));
        ToolRun run = krabka.run(
                "verify",
                "--gcs-bucket",
                LOCKED,
                "--endpoint",
                fixture.endpoint(),
                "--prefix",
                PREFIX,
                "--key-id",
                keys.id(),
                "--public-key",
                keys.publicKey().toString(),
                "--deep");
        assertEquals(0, run.exitCode(), run.describe());
        assertTrue(run.out().contains("OK: ") && run.out().contains("COMPLIANCE"), run.describe());
        WormArchive.assertRestoresAuthenticated(
                krabka,
                work,
                keys,
                partition,
                "--archive-gcs-bucket",
                LOCKED,
                "--archive-gcs-endpoint",
                fixture.endpoint(),
                "--archive-prefix",
                PREFIX);
    }

    @Test
    void anUnlockedRetentionPolicyStopsTheBrokerInOneLineNamingTheBucket() throws Exception {
        WormKeys keys = WormKeys.generate(work.resolve("keys"), "worm-gcs");
        String refusal = WormArchive.refusedStart(
                new KrabkaCommand(work.resolve("runs")), work.resolve("data"), settings(UNLOCKED, keys));
        assertTrue(refusal.contains("gs://" + UNLOCKED) && refusal.contains("can be lifted"), refusal);
    }
}
