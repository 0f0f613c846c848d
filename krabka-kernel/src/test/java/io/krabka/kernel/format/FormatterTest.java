package io.krabka.kernel.format;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.log.checkpoint.MetaProperties;
import io.krabka.spi.common.Uuid;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The formatter on real directories: what it writes, every refusal, and a failed format leaving nothing formatted. */
class FormatterTest {
    private static final long NOW = 1_796_010_444_407L;
    private static final String CLUSTER_ID = "MkU3OEVBNTcwNTJENDM2Qk";
    private static final Uuid DIRECTORY_ID = Uuid.fromString("0XYIQhIGSoePQhGC5Avl4w");
    private static final InitialQuorum STANDALONE = new InitialQuorum.Standalone("127.0.0.1", 9093);

    @TempDir
    Path root;

    private final Formatter formatter = new Formatter(Clock.fixed(Instant.ofEpochMilli(NOW), ZoneOffset.UTC));

    @Test
    void aStandaloneNodeGetsMetaPropertiesAndKafkasBootstrapSnapshot() throws Exception {
        Path dir = root.resolve("data");

        FormatResult result =
                formatter.format(spec(List.of(dir), dir, Optional.of(DIRECTORY_ID), STANDALONE, List.of(), false));

        assertEquals(
                List.of(new FormattedDirectory(dir, DirectoryType.DYNAMIC_METADATA_VOTER_DIRECTORY, DIRECTORY_ID)),
                result.formatted());
        assertEquals(List.of(), result.skipped());
        assertEquals(
                new MetaProperties(CLUSTER_ID, 1, Optional.of(DIRECTORY_ID)),
                MetaProperties.read(dir.resolve("meta.properties")));
        assertEquals(
                Set.of("meta.properties", "__cluster_metadata-0/00000000000000000000-0000000000.checkpoint"),
                files(dir));
        Path theirs = KafkaSnapshots.write(
                root.resolve("kafka"),
                NOW,
                result.features().metadataVersion(),
                result.features().levels(),
                Optional.of("1@127.0.0.1:9093:" + DIRECTORY_ID),
                "CONTROLLER");
        assertArrayEquals(Files.readAllBytes(theirs), Files.readAllBytes(snapshot(dir)));
    }

    @Test
    void dataDirectoriesGetOnlyMetaPropertiesWithTheirOwnIdsAndTheMetadataDirectoryMayBeApart() throws Exception {
        Path a = root.resolve("a");
        Path b = Files.createDirectories(root.resolve("b"));
        Path metadata = root.resolve("metadata");

        FormatResult result =
                formatter.format(spec(List.of(b, a), metadata, Optional.empty(), STANDALONE, List.of(), false));

        assertEquals(
                List.of(a, b, metadata),
                result.formatted().stream().map(FormattedDirectory::path).toList());
        assertEquals(
                List.of(
                        DirectoryType.LOG_DIRECTORY,
                        DirectoryType.LOG_DIRECTORY,
                        DirectoryType.DYNAMIC_METADATA_VOTER_DIRECTORY),
                result.formatted().stream().map(FormattedDirectory::type).toList());
        assertEquals(
                3,
                result.formatted().stream()
                        .map(FormattedDirectory::directoryId)
                        .distinct()
                        .count());
        for (FormattedDirectory formatted : result.formatted()) {
            MetaProperties props = MetaProperties.read(formatted.path().resolve("meta.properties"));
            assertEquals(new MetaProperties(CLUSTER_ID, 1, Optional.of(formatted.directoryId())), props);
            assertFalse(DirectoryId.isReserved(formatted.directoryId()));
            assertFalse(formatted.directoryId().toString().startsWith("-"));
        }
        assertEquals(Set.of("meta.properties"), files(a));
        assertEquals(Set.of("meta.properties"), files(b));
        assertEquals(
                Set.of("meta.properties", "__cluster_metadata-0/00000000000000000000-0000000000.checkpoint"),
                files(metadata));
        assertTrue(KafkaSnapshots.read(snapshot(metadata))
                .get(1)
                .contains("voterDirectoryId=" + result.formatted().get(2).directoryId()));
    }

    @Test
    void aFormattedDirectoryIsRefusedAndLeftAsItWas() throws Exception {
        Path a = root.resolve("a");
        Path b = root.resolve("b");
        formatter.format(spec(List.of(a), a, Optional.of(DIRECTORY_ID), STANDALONE, List.of(), false));
        Map<String, byte[]> before = contents(a);

        FormatException refused = assertThrows(
                FormatException.class,
                () -> formatter.format(
                        spec(List.of(a, b), a, Optional.of(DIRECTORY_ID), STANDALONE, List.of(), false)));

        assertEquals(FormatException.Kind.ALREADY_FORMATTED, refused.kind());
        assertEquals(
                "Log directory " + a + " is already formatted. Use --ignore-formatted to ignore this directory and "
                        + "format the others.",
                refused.getMessage());
        assertContents(before, contents(a));
        assertFalse(Files.exists(b));
    }

    @Test
    void ignoringFormattedDirectoriesFormatsTheOthersAndTouchesNothingWhenAllAreFormatted() throws Exception {
        Path a = root.resolve("a");
        Path b = root.resolve("b");
        formatter.format(spec(List.of(a), a, Optional.of(DIRECTORY_ID), STANDALONE, List.of(), false));
        Map<String, byte[]> before = contents(a);

        FormatResult result =
                formatter.format(spec(List.of(a, b), a, Optional.of(DIRECTORY_ID), STANDALONE, List.of(), true));

        assertEquals(List.of(a), result.skipped());
        assertEquals(
                List.of(b),
                result.formatted().stream().map(FormattedDirectory::path).toList());
        assertNotEquals(DIRECTORY_ID, result.formatted().getFirst().directoryId());
        assertContents(before, contents(a));
        assertEquals(Set.of("meta.properties"), files(b));

        Map<String, byte[]> all = contents(root);
        FormatResult again =
                formatter.format(spec(List.of(a, b), a, Optional.of(DIRECTORY_ID), STANDALONE, List.of(), true));

        assertEquals(List.of(), again.formatted());
        assertEquals(List.of(a, b), again.skipped());
        assertContents(all, contents(root));
    }

    @Test
    void aDirectoryOfAnotherClusterOrNodeIsRefusedEvenWhenFormattedOnesAreIgnored() throws Exception {
        Path a = root.resolve("a");
        formatter.format(spec(List.of(a), a, Optional.of(DIRECTORY_ID), STANDALONE, List.of(), false));
        Path file = a.resolve("meta.properties");

        for (boolean ignoreFormatted : List.of(false, true)) {
            FormatException otherCluster = assertThrows(
                    FormatException.class,
                    () -> formatter.format(new FormatSpec(
                            List.of(a),
                            a,
                            "AAAAAAAAAAAAAAAAAAAAAA",
                            1,
                            Optional.empty(),
                            Optional.empty(),
                            List.of(),
                            STANDALONE,
                            "CONTROLLER",
                            ignoreFormatted)));
            assertEquals(FormatException.Kind.CONFLICT, otherCluster.kind());
            assertEquals(
                    "Invalid cluster.id in: " + file + ". Expected AAAAAAAAAAAAAAAAAAAAAA, but read " + CLUSTER_ID,
                    otherCluster.getMessage());

            FormatException otherNode = assertThrows(
                    FormatException.class,
                    () -> formatter.format(new FormatSpec(
                            List.of(a),
                            a,
                            CLUSTER_ID,
                            2,
                            Optional.empty(),
                            Optional.empty(),
                            List.of(),
                            STANDALONE,
                            "CONTROLLER",
                            ignoreFormatted)));
            assertEquals(FormatException.Kind.CONFLICT, otherNode.kind());
            assertEquals(
                    "Stored node id 1 doesn't match previous node id 2 in " + file + ". If you moved your data, make "
                            + "sure your configured node id matches. If you intend to create a new node, you should remove all data "
                            + "in your data directories.",
                    otherNode.getMessage());
        }
    }

    @Test
    void foreignFilesAreRefusedAndNoDirectoryIsFormatted() throws Exception {
        Path a = root.resolve("a");
        Path b = Files.createDirectories(root.resolve("b"));
        Files.writeString(b.resolve("orders-0"), "someone's data");

        FormatException refused = assertThrows(
                FormatException.class,
                () -> formatter.format(spec(List.of(a, b), a, Optional.empty(), STANDALONE, List.of(), false)));

        assertEquals(FormatException.Kind.CONFLICT, refused.kind());
        assertEquals(
                "Log directory " + b
                        + " has no meta.properties but holds orders-0: only an empty directory is formatted",
                refused.getMessage());
        assertFalse(Files.exists(a));
        assertEquals(Set.of("orders-0"), files(b));
    }

    @Test
    void lostAndFoundAndTheLeftoversOfAnInterruptedFormatAreNotForeign() throws Exception {
        Path metadata = Files.createDirectories(root.resolve("metadata"));
        Files.createDirectories(metadata.resolve("lost+found"));
        Files.writeString(metadata.resolve("meta.properties.tmp"), "cluster.id=half");
        Path snapshots = Files.createDirectories(metadata.resolve("__cluster_metadata-0"));
        Files.writeString(snapshots.resolve("00000000000000000000-0000000000.checkpoint"), "an older snapshot");
        Files.writeString(snapshots.resolve("00000000000000000000-0000000000-123.checkpoint.part"), "a partial one");

        formatter.format(spec(List.of(metadata), metadata, Optional.of(DIRECTORY_ID), STANDALONE, List.of(), false));

        assertEquals(
                new MetaProperties(CLUSTER_ID, 1, Optional.of(DIRECTORY_ID)),
                MetaProperties.read(metadata.resolve("meta.properties")));
        assertEquals(
                KafkaSnapshots.read(KafkaSnapshots.write(
                        root.resolve("kafka"),
                        NOW,
                        BootstrapFeatures.resolve(Optional.empty(), List.of()).metadataVersion(),
                        BootstrapFeatures.resolve(Optional.empty(), List.of()).levels(),
                        Optional.of("1@127.0.0.1:9093:" + DIRECTORY_ID),
                        "CONTROLLER")),
                KafkaSnapshots.read(snapshot(metadata)));
    }

    @Test
    void snapshotLeftoversAreForeignInADataDirectoryAndBesideOtherFiles() throws Exception {
        Path metadata = root.resolve("metadata");
        Path data = Files.createDirectories(root.resolve("data").resolve("__cluster_metadata-0"))
                .getParent();
        assertConflict(
                "Log directory " + data + " has no meta.properties but holds __cluster_metadata-0: only an empty "
                        + "directory is formatted",
                spec(List.of(metadata, data), metadata, Optional.empty(), STANDALONE, List.of(), false));

        Files.delete(data.resolve("__cluster_metadata-0"));
        Path snapshots = Files.createDirectories(metadata.resolve("__cluster_metadata-0"));
        Files.writeString(snapshots.resolve("00000000000000000000-0000000000.log"), "a log segment");
        assertConflict(
                "Log directory " + metadata + " has no meta.properties but holds __cluster_metadata-0: only an empty "
                        + "directory is formatted",
                spec(List.of(metadata, data), metadata, Optional.empty(), STANDALONE, List.of(), false));

        Files.delete(snapshots.resolve("00000000000000000000-0000000000.log"));
        Files.createDirectories(data.resolve("lost+found"));
        Files.writeString(data.resolve("lost+found").resolve("inode-12"), "kept by fsck");
        formatter.format(spec(List.of(metadata, data), metadata, Optional.empty(), STANDALONE, List.of(), false));
        assertTrue(Files.exists(data.resolve("meta.properties")));
    }

    @Test
    void aFileWhereALogDirectoryShouldBeIsRefused() throws Exception {
        Path file = Files.writeString(root.resolve("file"), "not a directory");

        assertConflict(
                "Log directory " + file + " is not a directory",
                spec(List.of(file), file, Optional.empty(), STANDALONE, List.of(), false));
    }

    @Test
    void anUnreadableOrInconsistentMetaPropertiesIsRefused() throws Exception {
        Path a = Files.createDirectories(root.resolve("a"));
        Path b = Files.createDirectories(root.resolve("b"));
        Files.writeString(a.resolve("meta.properties"), "version=0\nbroker.id=1\n");
        assertConflict(
                "Malformed " + a.resolve("meta.properties") + ": version 0 is not supported; only version 1 (KRaft) is",
                spec(List.of(a), a, Optional.empty(), STANDALONE, List.of(), true));

        new MetaProperties(CLUSTER_ID, 1, Optional.of(new Uuid(0, 7))).write(a.resolve("meta.properties"));
        assertConflict(
                "Invalid reserved directory ID AAAAAAAAAAAAAAAAAAAABw found in " + a,
                spec(List.of(a), a, Optional.empty(), STANDALONE, List.of(), true));

        new MetaProperties(CLUSTER_ID, 1, Optional.of(DIRECTORY_ID)).write(a.resolve("meta.properties"));
        new MetaProperties(CLUSTER_ID, 1, Optional.of(DIRECTORY_ID)).write(b.resolve("meta.properties"));
        assertConflict(
                "Duplicate directory ID " + DIRECTORY_ID + " found. It was the ID of " + a + ", but also of " + b,
                spec(List.of(a, b), a, Optional.empty(), STANDALONE, List.of(), true));

        Path c = root.resolve("c");
        Files.delete(b.resolve("meta.properties"));
        assertConflict(
                "Directory id " + DIRECTORY_ID + " for " + c
                        + " is already the id of another log directory of this node",
                spec(List.of(a, c), c, Optional.of(DIRECTORY_ID), STANDALONE, List.of(), true));
        assertFalse(Files.exists(c));
    }

    @Test
    void initialControllersGiveTheVoterItsDirectoryIdOrLeaveANonVoterItsOwn() throws Exception {
        DynamicVoters voters = DynamicVoters.parse("1@h1:9093:" + DIRECTORY_ID + ",2@h2:9093:kFtEAwnxTqKW0CKbOLkH0g");
        Path voter = root.resolve("voter");
        Path nonVoter = root.resolve("non-voter");

        FormatResult asVoter = formatter.format(spec(
                List.of(voter),
                voter,
                Optional.empty(),
                new InitialQuorum.InitialControllers(voters),
                List.of(),
                false));
        FormatResult asNonVoter = formatter.format(new FormatSpec(
                List.of(nonVoter),
                nonVoter,
                CLUSTER_ID,
                3,
                Optional.empty(),
                Optional.empty(),
                List.of(),
                new InitialQuorum.InitialControllers(voters),
                "CONTROLLER",
                false));

        assertEquals(
                new FormattedDirectory(voter, DirectoryType.DYNAMIC_METADATA_VOTER_DIRECTORY, DIRECTORY_ID),
                asVoter.formatted().getFirst());
        assertEquals(
                DirectoryType.DYNAMIC_METADATA_NON_VOTER_DIRECTORY,
                asNonVoter.formatted().getFirst().type());
        for (Path dir : List.of(voter, nonVoter)) {
            Path theirs = KafkaSnapshots.write(
                    root.resolve("kafka-" + dir.getFileName()),
                    NOW,
                    asVoter.features().metadataVersion(),
                    asVoter.features().levels(),
                    Optional.of(voters.toString()),
                    "CONTROLLER");
            assertArrayEquals(Files.readAllBytes(theirs), Files.readAllBytes(snapshot(dir)));
        }
    }

    @Test
    void aDirectoryIdThatDisagreesWithTheVotersOrIsReservedIsRefusedBeforeAnythingIsWritten() {
        Path dir = root.resolve("dir");
        Uuid other = Uuid.fromString("kFtEAwnxTqKW0CKbOLkH0g");
        FormatException mismatch = assertThrows(
                FormatException.class,
                () -> formatter.format(spec(
                        List.of(dir),
                        dir,
                        Optional.of(other),
                        new InitialQuorum.InitialControllers(DynamicVoters.parse("1@h:1:" + DIRECTORY_ID)),
                        List.of(),
                        false)));
        assertEquals(FormatException.Kind.INVALID_VOTERS, mismatch.kind());
        assertEquals(
                "--directory-id " + other + " differs from the directory id " + DIRECTORY_ID
                        + " that --initial-controllers gives node 1",
                mismatch.getMessage());

        FormatException reserved = assertThrows(
                FormatException.class,
                () -> formatter.format(spec(
                        List.of(dir),
                        dir,
                        Optional.empty(),
                        new InitialQuorum.InitialControllers(DynamicVoters.parse("1@h:1:AAAAAAAAAAAAAAAAAAAAAQ")),
                        List.of(),
                        false)));
        assertEquals(FormatException.Kind.INVALID_VOTERS, reserved.kind());
        assertEquals(
                "--initial-controllers gives node 1 the directory id AAAAAAAAAAAAAAAAAAAAAQ, one of the 100 ids Kafka "
                        + "reserves",
                reserved.getMessage());
        assertFalse(Files.exists(dir));
    }

    @Test
    void withoutInitialControllersTheSnapshotHasNoVoters() throws Exception {
        Path dir = root.resolve("dir");

        FormatResult result = formatter.format(spec(
                List.of(dir),
                dir,
                Optional.of(DIRECTORY_ID),
                new InitialQuorum.NoInitialControllers(),
                List.of("group.version=0"),
                false));

        assertEquals(
                new FormattedDirectory(dir, DirectoryType.DYNAMIC_METADATA_NON_VOTER_DIRECTORY, DIRECTORY_ID),
                result.formatted().getFirst());
        Path theirs = KafkaSnapshots.write(
                root.resolve("kafka"),
                NOW,
                result.features().metadataVersion(),
                result.features().levels(),
                Optional.empty(),
                "CONTROLLER");
        assertArrayEquals(Files.readAllBytes(theirs), Files.readAllBytes(snapshot(dir)));
    }

    @Test
    void badFeaturesAreReportedBeforeTheDirectoriesAsKafkaDoes() throws Exception {
        Path a = root.resolve("a");
        formatter.format(spec(List.of(a), a, Optional.empty(), STANDALONE, List.of(), false));

        FormatException refused = assertThrows(
                FormatException.class,
                () -> formatter.format(
                        spec(List.of(a), a, Optional.empty(), STANDALONE, List.of("group.version=9"), false)));

        assertEquals(FormatException.Kind.INVALID_FEATURES, refused.kind());
        assertEquals("No feature:group.version with feature level 9", refused.getMessage());
    }

    @Test
    void aFailedWriteLeavesNoMetaPropertiesAndFormattingAgainWorks() throws Exception {
        Path a = root.resolve("a");
        Path b = root.resolve("b");
        Path blocker = Files.writeString(root.resolve("blocker"), "a file where a parent directory should be");
        Path metadata = blocker.resolve("metadata");

        FormatException failed = assertThrows(
                FormatException.class,
                () -> formatter.format(spec(List.of(a, b), metadata, Optional.empty(), STANDALONE, List.of(), false)));

        assertEquals(FormatException.Kind.IO_ERROR, failed.kind());
        assertTrue(
                failed.getMessage().startsWith("Formatting " + metadata + " failed: java.nio.file."),
                failed.getMessage());
        assertEquals(Set.of(), files(a), "the data directories were written before the failure, and cleared after it");
        assertEquals(Set.of(), files(b));

        Files.delete(blocker);
        FormatResult result =
                formatter.format(spec(List.of(a, b), metadata, Optional.empty(), STANDALONE, List.of(), false));
        assertEquals(3, result.formatted().size());
        assertEquals(Set.of("meta.properties"), files(a));
    }

    private void assertConflict(String message, FormatSpec spec) {
        FormatException refused = assertThrows(FormatException.class, () -> formatter.format(spec));
        assertEquals(FormatException.Kind.CONFLICT, refused.kind());
        assertEquals(message, refused.getMessage());
    }

    private static FormatSpec spec(
            List<Path> logDirs,
            Path metadataLogDir,
            Optional<Uuid> directoryId,
            InitialQuorum quorum,
            List<String> features,
            boolean ignoreFormatted) {
        return new FormatSpec(
                logDirs,
                metadataLogDir,
                CLUSTER_ID,
                1,
                directoryId,
                Optional.empty(),
                features,
                quorum,
                "CONTROLLER",
                ignoreFormatted);
    }

    private static Path snapshot(Path dir) {
        return dir.resolve("__cluster_metadata-0").resolve("00000000000000000000-0000000000.checkpoint");
    }

    private static Set<String> files(Path dir) throws IOException {
        return contents(dir).keySet();
    }

    private static Map<String, byte[]> contents(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return Map.of();
        }
        try (Stream<Path> walk = Files.walk(dir)) {
            Map<String, byte[]> contents = new TreeMap<>();
            for (Path file : walk.filter(Files::isRegularFile).collect(Collectors.toList())) {
                contents.put(dir.relativize(file).toString(), Files.readAllBytes(file));
            }
            return contents;
        }
    }

    private static void assertContents(Map<String, byte[]> expected, Map<String, byte[]> actual) {
        assertEquals(expected.keySet(), actual.keySet());
        expected.forEach((file, bytes) -> assertArrayEquals(bytes, actual.get(file), file));
    }
}
