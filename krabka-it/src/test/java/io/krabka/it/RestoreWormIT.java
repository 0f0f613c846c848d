package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.CleanupMode;
import org.junit.jupiter.api.io.TempDir;

/**
 * The authenticated restore: a write-once archive that Krabka's broker wrote through the {@code worm} plugin
 * restores with the trusted key, its chain tip pinned, into a directory Krabka serves every archived record from;
 * a flipped byte in a segment, a swapped manifest or another tip stops it with exit 5 naming the object.
 */
class RestoreWormIT {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TopicPartition PARTITION = new TopicPartition("ledger", 0);

    @TempDir(cleanup = CleanupMode.ON_SUCCESS)
    Path work;

    @Test
    void aWormArchiveRestoresAuthenticatedAndEveryTamperStopsIt() throws Exception {
        WormKeys keys = WormKeys.generate(work.resolve("keys"), "worm-restore");
        WormArchive archive = new WormArchive(Files.createDirectories(work.resolve("archive")));
        Map<String, String> settings = Map.of(
                "remote.log.storage.system.enable", "true",
                "remote.log.storage.manager.class.name", "worm",
                "remote.log.metadata.manager.class.name", "inmemory",
                "remote.log.metadata.custom.metadata.max.bytes", "1024",
                "remote.log.manager.task.interval.ms", "500",
                "rsm.config.store", "local",
                "rsm.config.store.dir", archive.dir.toString(),
                "rsm.config.allow.unenforced.retention", "true",
                "rsm.config.signing.key.path", keys.privateKey().toString(),
                "rsm.config.signing.key.id", keys.id());
        long archivedEnd;
        try (KrabkaBroker broker = KrabkaBroker.start(work.resolve("source"), settings)) {
            WormArchive.archiveOnePartition(broker, PARTITION, TieredRecords.count(4));
            try (Admin admin =
                    Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
                archivedEnd = admin.listOffsets(Map.of(PARTITION, OffsetSpec.latestTiered()))
                                .partitionResult(PARTITION)
                                .get(1, TimeUnit.MINUTES)
                                .offset()
                        + 1;
            }
            assertEquals(0, broker.stop());
        }
        KrabkaCommand krabka = new KrabkaCommand(Files.createDirectories(work.resolve("runs")));
        Map<String, String> tips = WormArchive.tips(archive.verify(krabka, keys, "--format", "json"));
        Map.Entry<String, String> tip = tips.entrySet().iterator().next();

        Path restored = work.resolve("restored");
        ToolRun run = restore(
                krabka,
                archive,
                keys,
                restored,
                "--worm-expect-head",
                tip.getKey() + "=" + tip.getValue(),
                "--report",
                "json");
        assertEquals(0, run.exitCode(), run.describe());
        JsonNode authentication = JSON.readTree(run.out()).path("authentication");
        assertEquals(1, authentication.path("partitions").asInt(), run.out());
        assertTrue(authentication.path("manifests").asInt() >= 2, run.out());
        assertTrue(authentication.path("tail_truncation_protected").asBoolean(), run.out());
        assertEquals(
                tip.getValue(),
                authentication.path("chain_heads").path(tip.getKey()).asText(),
                run.out());
        try (KrabkaBroker broker = KrabkaBroker.start(
                work.resolve("restored-broker"), Map.of(), (bin, logDir) -> FileTrees.copy(restored, logDir))) {
            TieredRecords.assertReadsExactly(broker.bootstrapServers(), PARTITION, 0, archivedEnd);
        }

        WormArchive flipped = archive.copy(work.resolve("flipped"));
        Path log = WormArchive.files(flipped.partitions().getFirst(), "log").get(1);
        byte[] bytes = Files.readAllBytes(log);
        bytes[bytes.length / 2] ^= 1;
        Files.write(log, bytes);
        assertStopped(restore(krabka, flipped, keys, work.resolve("flipped-target")), log);

        WormArchive swapped = archive.copy(work.resolve("swapped"));
        List<Path> manifests = WormArchive.files(swapped.partitions().getFirst(), "manifest");
        Files.write(manifests.get(0), Files.readAllBytes(manifests.get(1)));
        assertStopped(restore(krabka, swapped, keys, work.resolve("swapped-target")), manifests.get(0));

        ToolRun otherTip = restore(
                krabka,
                archive,
                keys,
                work.resolve("other-tip"),
                "--worm-expect-head",
                tip.getKey() + "=" + "00".repeat(32));
        assertEquals(5, otherTip.exitCode(), otherTip.describe());
        assertTrue(otherTip.err().contains(tip.getKey()), otherTip.describe());
    }

    private static ToolRun restore(
            KrabkaCommand krabka, WormArchive archive, WormKeys keys, Path target, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of(
                "restore",
                "--archive-local",
                archive.dir.toString(),
                "--log-dir",
                target.toString(),
                "--node-id",
                "1",
                "--worm-key-id",
                keys.id(),
                "--worm-public-key",
                keys.publicKey().toString()));
        args.addAll(Arrays.asList(more));
        return krabka.run(args.toArray(String[]::new));
    }

    private static void assertStopped(ToolRun run, Path object) {
        assertEquals(5, run.exitCode(), run.describe());
        String error = run.err().strip().lines().toList().getLast();
        assertTrue(error.contains(object.getFileName().toString()), "names " + object + ": " + run.describe());
    }
}
