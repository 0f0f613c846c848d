package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.archive.manifest.ManifestJson;
import io.krabka.archive.manifest.ManifestSignature;
import io.krabka.archive.manifest.ManifestSigningInput;
import io.krabka.archive.manifest.SegmentManifest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.Signature;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The write-once archive end to end: Krabka's broker (the distribution, in its own process) archives a topic through
 * the {@code worm} plugin over the {@code local} store, consumers read the archived offsets back, {@code krabka
 * verify} proves the archive and catches each tamper on a copy of it, a restart goes on with the chain, and deleting
 * the topic deletes nothing.
 */
class WormArchiveIT {
    private static final String TOPIC = "ledger";

    @TempDir
    Path work;

    private Map<String, String> settings(WormArchive archive, WormKeys keys, boolean writeOnly) {
        Map<String, String> settings = new HashMap<>(Map.of(
                "remote.log.storage.system.enable", "true",
                "remote.log.storage.manager.class.name", "worm",
                "remote.log.metadata.manager.class.name", "inmemory",
                "remote.log.metadata.custom.metadata.max.bytes", "1024",
                "remote.log.manager.task.interval.ms", "500",
                "log.retention.check.interval.ms", "500",
                "rsm.config.store", "local",
                "rsm.config.store.dir", archive.dir.toString(),
                "rsm.config.allow.unenforced.retention", "true"));
        settings.putAll(Map.of(
                "rsm.config.signing.key.path",
                keys.privateKey().toString(),
                "rsm.config.signing.key.id",
                keys.id(),
                "rsm.config.write.only",
                String.valueOf(writeOnly)));
        return settings;
    }

    @Test
    void aBrokerArchivesATopicThatVerifyProvesAcrossARestartAndEveryTamperIsCaught() throws Exception {
        WormKeys keys = WormKeys.generate(work.resolve("keys"), "worm-it");
        WormArchive archive = new WormArchive(Files.createDirectories(work.resolve("archive")));
        KrabkaCommand krabka = new KrabkaCommand(work.resolve("runs"));
        TopicPartition p0 = new TopicPartition(TOPIC, 0);
        TopicPartition p1 = new TopicPartition(TOPIC, 1);
        long first = TieredRecords.count(5);
        try (KrabkaBroker broker = KrabkaBroker.start(work.resolve("broker"), settings(archive, keys, false))) {
            try (Admin admin = admin(broker)) {
                admin.createTopics(List.of(new NewTopic(TOPIC, 2, (short) 1)
                                .configs(Map.of(
                                        "remote.storage.enable",
                                        "true",
                                        "local.retention.bytes",
                                        "1",
                                        "segment.bytes",
                                        "1048576",
                                        "retention.ms",
                                        "1000"))))
                        .all()
                        .get(1, TimeUnit.MINUTES);
            }
            for (TopicPartition partition : List.of(p0, p1)) {
                TieredRecords.produce(broker.bootstrapServers(), partition, 0, first, n -> System.currentTimeMillis());
            }
            WormArchive.awaitArchived(broker, List.of(p0, p1), 4);
            TieredRecords.assertReadsExactly(broker.bootstrapServers(), p0, 0, first);

            ToolRun clean = archive.verify(krabka, keys);
            assertEquals(0, clean.exitCode(), clean.describe());
            assertTrue(clean.out().contains("OK: ") && clean.out().contains("tail unverified"), clean.describe());
            Map<String, String> tips = WormArchive.tips(archive.verify(krabka, keys, "--format", "json"));
            assertEquals(2, tips.size(), tips.toString());

            assertEquals(0, broker.stop());
            broker.start();
            TieredRecords.produce(
                    broker.bootstrapServers(),
                    p0,
                    first,
                    first + TieredRecords.count(3),
                    n -> System.currentTimeMillis());
            WormArchive.awaitArchived(broker, List.of(p0), 6);
            TieredRecords.assertReadsExactly(broker.bootstrapServers(), p0, 0, first + TieredRecords.count(3));
            ToolRun afterRestart = archive.verify(krabka, keys);
            assertEquals(
                    0,
                    afterRestart.exitCode(),
                    "a restart goes on with the chain, no new epoch: " + afterRestart.describe());
            Map<String, String> laterTips = WormArchive.tips(archive.verify(krabka, keys, "--format", "json"));
            List<String> pinned = laterTips.entrySet().stream()
                    .flatMap(e -> List.of("--expect-head", e.getKey() + "=" + e.getValue()).stream())
                    .toList();
            ToolRun pinnedRun = archive.verify(krabka, keys, pinned.toArray(String[]::new));
            assertEquals(0, pinnedRun.exitCode(), pinnedRun.describe());
            assertTrue(!pinnedRun.out().contains("tail unverified"), pinnedRun.describe());

            List<String> archived = archive.allFiles();
            try (Admin admin = admin(broker)) {
                admin.deleteTopics(List.of(TOPIC)).all().get(1, TimeUnit.MINUTES);
            }
            TieredRecords.await(
                    "the topic's deletion reached the archive and was refused",
                    () -> total(broker.metrics(), "remotearchivedeletesrefusedpersec_count") > 0);
            assertEquals(archived, archive.allFiles(), "deleting the topic deletes nothing from the archive");
            tamperMatrix(archive, keys, krabka, laterTips);
        }
    }

    private void tamperMatrix(WormArchive archive, WormKeys keys, KrabkaCommand krabka, Map<String, String> tips)
            throws Exception {
        String p0 = tips.keySet().stream()
                .filter(d -> d.contains(TOPIC + "-0-"))
                .findFirst()
                .orElseThrow();
        int cases = 0;

        WormArchive flipped = copy(archive, ++cases);
        Path log = WormArchive.files(partition(flipped, 0), "log").get(1);
        byte[] bytes = Files.readAllBytes(log);
        bytes[bytes.length / 2] ^= 1;
        Files.write(log, bytes);
        assertEquals(0, flipped.verify(krabka, keys).exitCode(), "the size is right: only --deep reads the bytes");
        assertTampered(flipped.verify(krabka, keys, "--deep"), log, "hashes to");

        WormArchive noIndex = copy(archive, ++cases);
        Path index = WormArchive.files(partition(noIndex, 0), "index").get(1);
        Files.delete(index);
        assertTampered(noIndex.verify(krabka, keys), index, null);

        WormArchive truncated = copy(archive, ++cases);
        Path truncatedLog = WormArchive.files(partition(truncated, 0), "log").get(2);
        Files.write(truncatedLog, Arrays.copyOf(Files.readAllBytes(truncatedLog), 100));
        assertTampered(truncated.verify(krabka, keys), truncatedLog, "the manifest records a size of");

        WormArchive middleRemoved = copy(archive, ++cases);
        Files.delete(WormArchive.files(partition(middleRemoved, 0), "manifest").get(1));
        assertTampered(middleRemoved.verify(krabka, keys), null, null);

        WormArchive swapped = copy(archive, ++cases);
        List<Path> manifests = WormArchive.files(partition(swapped, 0), "manifest");
        byte[] a = Files.readAllBytes(manifests.get(1));
        Files.write(manifests.get(1), Files.readAllBytes(manifests.get(2)));
        Files.write(manifests.get(2), a);
        assertTampered(swapped.verify(krabka, keys), null, null);

        WormArchive replayed = copy(archive, ++cases);
        Path foreign = WormArchive.files(partition(replayed, 1), "manifest").get(0);
        Path target = partition(replayed, 0).resolve(foreign.getFileName());
        Files.copy(foreign, target);
        assertTampered(replayed.verify(krabka, keys), null, null);

        WormArchive untrusted = copy(archive, ++cases);
        resign(WormArchive.files(partition(untrusted, 0), "manifest").get(1), "rogue", false);
        ToolRun untrustedRun = untrusted.verify(krabka, keys);
        assertEquals(3, untrustedRun.exitCode(), untrustedRun.describe());
        assertTrue(untrustedRun.out().contains("INCOMPLETE ATTESTATION"), untrustedRun.describe());

        WormArchive edited = copy(archive, ++cases);
        Path editedManifest =
                WormArchive.files(partition(edited, 0), "manifest").get(1);
        resign(editedManifest, keys.id(), true);
        assertTampered(edited.verify(krabka, keys), null, null);

        WormArchive tail = copy(archive, ++cases);
        List<Path> tailManifests = WormArchive.files(partition(tail, 0), "manifest");
        Files.delete(tailManifests.getLast());
        ToolRun unpinned = tail.verify(krabka, keys);
        assertEquals(
                0,
                unpinned.exitCode(),
                "tail truncation cannot be seen from the archive alone: " + unpinned.describe());
        assertTrue(unpinned.out().contains("tail unverified"), unpinned.describe());
        ToolRun pinned = tail.verify(krabka, keys, "--expect-head", p0 + "=" + tips.get(p0));
        assertEquals(1, pinned.exitCode(), pinned.describe());
        assertTrue(pinned.out().contains("HEAD MISMATCH"), pinned.describe());

        WormArchive orphan = copy(archive, ++cases);
        Files.writeString(partition(orphan, 0).resolve("planted.bin"), "not archived");
        ToolRun reported = orphan.verify(krabka, keys);
        assertEquals(0, reported.exitCode(), reported.describe());
        assertTrue(reported.out().contains("ORPHAN OBJECTS"), reported.describe());
        assertEquals(3, orphan.verify(krabka, keys, "--strict-orphans").exitCode());

        ToolRun missing = new WormArchive(work.resolve("no-such-archive")).verify(krabka, keys);
        assertEquals(4, missing.exitCode(), missing.describe());
        assertEquals(1, missing.err().strip().lines().count(), missing.describe());
        ToolRun unpaired = krabka.run("verify", "--local-dir", archive.dir.toString(), "--key-id", "a");
        assertEquals(2, unpaired.exitCode(), unpaired.describe());
        assertTrue(unpaired.err().contains("pair by position"), unpaired.describe());
    }

    @Test
    void aWriteOnlyArchiveRefusesRemoteReadsWhileListOffsetsStillAnswers() throws Exception {
        WormKeys keys = WormKeys.generate(work.resolve("keys"), "worm-wo");
        WormArchive archive = new WormArchive(Files.createDirectories(work.resolve("archive")));
        TopicPartition partition = new TopicPartition(TOPIC, 0);
        long records = TieredRecords.count(3);
        try (KrabkaBroker broker = KrabkaBroker.start(work.resolve("broker"), settings(archive, keys, true))) {
            try (Admin admin = admin(broker)) {
                admin.createTopics(List.of(new NewTopic(TOPIC, 1, (short) 1)
                                .configs(Map.of(
                                        "remote.storage.enable",
                                        "true",
                                        "local.retention.bytes",
                                        "1",
                                        "segment.bytes",
                                        "1048576"))))
                        .all()
                        .get(1, TimeUnit.MINUTES);
            }
            TieredRecords.produce(broker.bootstrapServers(), partition, 0, records, n -> System.currentTimeMillis());
            WormArchive.awaitArchived(broker, List.of(partition), 2);
            try (Admin admin = admin(broker)) {
                assertEquals(
                        0,
                        admin.listOffsets(Map.of(partition, OffsetSpec.earliest()))
                                .partitionResult(partition)
                                .get(1, TimeUnit.MINUTES)
                                .offset(),
                        "ListOffsets answers from the archive");
            }
            try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(
                    Map.of(
                            ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG,
                            broker.bootstrapServers(),
                            ConsumerConfig.AUTO_OFFSET_RESET_CONFIG,
                            "none"),
                    new ByteArrayDeserializer(),
                    new ByteArrayDeserializer())) {
                consumer.assign(List.of(partition));
                consumer.seek(partition, 0);
                assertThrows(
                        OffsetOutOfRangeException.class,
                        () -> {
                            for (int i = 0; i < 60; i++) {
                                consumer.poll(Duration.ofMillis(500));
                            }
                        },
                        "a write-only archive answers OFFSET_OUT_OF_RANGE below the local log");
            }
        }
    }

    private WormArchive copy(WormArchive archive, int n) throws Exception {
        return archive.copy(work.resolve("tamper-" + n));
    }

    private static Path partition(WormArchive archive, int number) throws Exception {
        return archive.partitions().stream()
                .filter(d -> d.getFileName().toString().startsWith(TOPIC + "-" + number + "-"))
                .findFirst()
                .orElseThrow();
    }

    /**
     * Signs a manifest again with a new key under {@code keyId}; with {@code edit}, after changing its body (its
     * max timestamp), so its head changes and the next manifest's link breaks.
     */
    private static void resign(Path file, String keyId, boolean edit) throws Exception {
        String json = Files.readString(file);
        if (edit) {
            json = json.replaceFirst("\"max_timestamp_ms\":\\d+", "\"max_timestamp_ms\":1");
        }
        SegmentManifest manifest = ManifestJson.read(json.getBytes(StandardCharsets.UTF_8));
        KeyPair rogue = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
        Signature signer = Signature.getInstance("Ed25519");
        signer.initSign(rogue.getPrivate());
        signer.update(ManifestSigningInput.of(
                keyId, manifest.body().chain(), manifest.body().head()));
        byte[] encoded = rogue.getPublic().getEncoded();
        byte[] raw = Arrays.copyOfRange(encoded, encoded.length - 32, encoded.length);
        Files.write(
                file,
                ManifestJson.write(new SegmentManifest(
                        manifest.body(), Optional.of(new ManifestSignature(keyId, raw, signer.sign())))));
    }

    private static void assertTampered(ToolRun run, Path object, String reason) {
        assertEquals(1, run.exitCode(), run.describe());
        assertTrue(run.out().contains("TAMPER DETECTED at "), run.describe());
        if (object != null) {
            assertTrue(
                    run.out().contains(object.getFileName().toString()),
                    "the break names " + object + ": " + run.describe());
        }
        if (reason != null) {
            assertTrue(run.out().contains(reason), run.describe());
        }
    }

    /** A Prometheus sample of the broker's metrics over all topics, 0 when absent. */
    private static long total(String metrics, String series) {
        Matcher matcher =
                Pattern.compile("_" + Pattern.quote(series) + " ([0-9.E]+)").matcher(metrics);
        return matcher.find() ? (long) Double.parseDouble(matcher.group(1)) : 0;
    }

    private static Admin admin(KrabkaBroker broker) {
        return Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()));
    }
}
