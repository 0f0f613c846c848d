package io.krabka.launcher;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.format.DynamicVoters;
import io.krabka.kernel.format.FormatSpec;
import io.krabka.kernel.format.Formatter;
import io.krabka.kernel.format.InitialQuorum;
import io.krabka.spi.common.Uuid;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code krabka format} through the launcher: what the flags mean (the files are exactly those the kernel's
 * formatter writes for that meaning), what it prints, and the exit code and one-line message of every refusal.
 */
class FormatCommandTest {
    private static final String CLUSTER_ID = "MkU3OEVBNTcwNTJENDM2Qk";
    private static final String DIRECTORY_ID = "0XYIQhIGSoePQhGC5Avl4w";
    private static final Clock CLOCK = Clock.fixed(Instant.ofEpochMilli(1_796_010_444_407L), ZoneOffset.UTC);

    @TempDir
    Path root;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        out.reset();
        err.reset();
        Console console = new Console(
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Krabka(List.of(new FormatCommand(new Formatter(CLOCK)))).run(args, console);
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void standaloneFormatsWhatTheFormatterWritesForTheBrokersDefaultControllerListener() throws Exception {
        Path dir = root.resolve("data");

        assertEquals(
                ExitCode.OK,
                run(
                        "format",
                        "--log-dir",
                        dir.toString(),
                        "--node-id",
                        "1",
                        "--standalone",
                        "--cluster-id",
                        CLUSTER_ID,
                        "--directory-id",
                        DIRECTORY_ID));

        assertEquals("""
                Bootstrap features: eligible.leader.replicas.version=1, group.version=1, kraft.version=1, metadata.version=33, \
                share.version=2, streams.version=1, transaction.version=2.
                Formatting dynamic metadata voter directory %s with metadata.version 4.4-IV2.
                """.formatted(dir), out());
        assertEquals("", err());
        Path expected = formatDirectly(spec(
                List.of(root.resolve("expected")),
                root.resolve("expected"),
                CLUSTER_ID,
                Optional.of(Uuid.fromString(DIRECTORY_ID)),
                Optional.empty(),
                List.of(),
                new InitialQuorum.Standalone("127.0.0.1", 9093),
                "CONTROLLER"));
        assertSameFiles(expected, dir);
    }

    @Test
    void everyFlagIsPassedOn() throws Exception {
        Path a = root.resolve("a");
        Path b = root.resolve("b");
        Path c = root.resolve("c");

        assertEquals(
                ExitCode.OK,
                run(
                        "format",
                        "--log-dir",
                        a + "," + b,
                        "--log-dir",
                        c.toString(),
                        "--metadata-log-dir",
                        c.toString(),
                        "--node-id",
                        "2147483647",
                        "--standalone",
                        "--controller-listener",
                        "[::1]:19093",
                        "--controller-listener-name",
                        "internal",
                        "--cluster-id",
                        "3ad0e4b1-2b1f-4c49-9a64-5e0b9f0c1d2e",
                        "--directory-id",
                        DIRECTORY_ID,
                        "--release-version",
                        "4.0",
                        "--feature",
                        "group.version=0",
                        "--feature",
                        "transaction.version=1"));

        String clusterId = "OtDksSsfTEmaZF4LnwwdLg";
        assertTrue(out().endsWith("""
                Formatting data directory %s with metadata.version 4.0-IV3.
                Formatting data directory %s with metadata.version 4.0-IV3.
                Formatting dynamic metadata voter directory %s with metadata.version 4.0-IV3.
                """.formatted(a, b, c)), out());
        Path expected = root.resolve("expected");
        formatDirectly(new FormatSpec(
                List.of(expected),
                expected,
                clusterId,
                Integer.MAX_VALUE,
                Optional.of(Uuid.fromString(DIRECTORY_ID)),
                Optional.of("4.0"),
                List.of("group.version=0", "transaction.version=1"),
                new InitialQuorum.Standalone("::1", 19093),
                "INTERNAL",
                false));
        assertSameFiles(expected, c);
        assertEquals(clusterId, metaProperties(a).getProperty("cluster.id"));
        assertEquals("2147483647", metaProperties(b).getProperty("node.id"));
    }

    @Test
    void aMissingClusterIdIsGeneratedAndPrinted() throws Exception {
        Path dir = root.resolve("data");

        assertEquals(
                ExitCode.OK, run("format", "--log-dir", dir.toString(), "--node-id", "0", "--no-initial-controllers"));

        String clusterId = metaProperties(dir).getProperty("cluster.id");
        assertEquals(22, clusterId.length());
        assertTrue(out().startsWith("Generated cluster id " + clusterId + ".\n"), out());
        assertTrue(
                out().endsWith("Formatting dynamic metadata directory " + dir + " with metadata.version 4.4-IV2.\n"),
                out());
    }

    @Test
    void initialControllersGiveTheNodeItsVoterDirectoryId() throws Exception {
        Path dir = root.resolve("data");
        String voters = "1@10.0.0.1:9093:" + DIRECTORY_ID + ",2@10.0.0.2:9093:kFtEAwnxTqKW0CKbOLkH0g";

        assertEquals(
                ExitCode.OK,
                run(
                        "format",
                        "--log-dir",
                        dir.toString(),
                        "--node-id",
                        "1",
                        "--cluster-id",
                        CLUSTER_ID,
                        "--initial-controllers",
                        voters));

        assertEquals(DIRECTORY_ID, metaProperties(dir).getProperty("directory.id"));
        Path expected = formatDirectly(spec(
                List.of(root.resolve("expected")),
                root.resolve("expected"),
                CLUSTER_ID,
                Optional.empty(),
                Optional.empty(),
                List.of(),
                new InitialQuorum.InitialControllers(DynamicVoters.parse(voters)),
                "CONTROLLER"));
        assertSameFiles(expected, dir);
    }

    @Test
    void ignoringFormattedDirectoriesOfAFormattedNodeChangesNothingAndSucceeds() throws Exception {
        Path dir = root.resolve("data");
        String[] format = {
            "format", "--log-dir", dir.toString(), "--node-id", "1", "--standalone", "--cluster-id", CLUSTER_ID
        };
        assertEquals(ExitCode.OK, run(format));
        Map<String, byte[]> before = contents(dir);

        String[] again = Stream.concat(Stream.of(format), Stream.of("--ignore-formatted"))
                .toArray(String[]::new);
        assertEquals(ExitCode.OK, run(again));

        assertEquals(
                "Skipping " + dir + ": it is formatted already.\nAll of the log directories are already formatted.\n",
                out());
        assertSameContents(before, contents(dir));
    }

    @Test
    void refusalsOfTheDirectoriesExitThree() throws Exception {
        Path dir = root.resolve("data");
        String[] format = {
            "format", "--log-dir", dir.toString(), "--node-id", "1", "--standalone", "--cluster-id", CLUSTER_ID
        };
        assertEquals(ExitCode.OK, run(format));

        assertFails(
                ExitCode.STORAGE_REFUSED,
                "Log directory " + dir + " is already formatted. Use --ignore-formatted to "
                        + "ignore this directory and format the others.",
                format);
        assertFails(
                ExitCode.STORAGE_REFUSED,
                "Invalid cluster.id in: " + dir.resolve("meta.properties")
                        + ". Expected AAAAAAAAAAAAAAAAAAAAAA, but read " + CLUSTER_ID,
                "format",
                "--log-dir",
                dir.toString(),
                "--node-id",
                "1",
                "--standalone",
                "--cluster-id",
                "AAAAAAAAAAAAAAAAAAAAAA",
                "--ignore-formatted");
        assertFails(
                ExitCode.STORAGE_REFUSED,
                "Stored node id 1 doesn't match previous node id 7 in " + dir.resolve("meta.properties")
                        + ". If you moved your data, make sure your configured node id matches. If you intend to create a new node, you "
                        + "should remove all data in your data directories.",
                "format",
                "--log-dir",
                dir.toString(),
                "--node-id",
                "7",
                "--standalone",
                "--cluster-id",
                CLUSTER_ID);

        Path foreign = Files.createDirectories(root.resolve("foreign"));
        Files.writeString(foreign.resolve("notes.txt"), "mine");
        assertFails(
                ExitCode.STORAGE_REFUSED,
                "Log directory " + foreign + " has no meta.properties but holds notes.txt: only "
                        + "an empty directory is formatted",
                "format",
                "--log-dir",
                foreign.toString(),
                "--node-id",
                "1",
                "--standalone");
    }

    @Test
    void invalidVotersAreABadArgumentAndFailedWritesExitFour() throws Exception {
        Path dir = root.resolve("data");
        assertFails(
                ExitCode.USAGE,
                "--initial-controllers: No @ found in dynamic voter string.",
                "format",
                "--log-dir",
                dir.toString(),
                "--node-id",
                "1",
                "--initial-controllers",
                "1-localhost:9093");
        assertFails(
                ExitCode.USAGE,
                "--initial-controllers: Node id 1 was specified more than once.",
                "format",
                "--log-dir",
                dir.toString(),
                "--node-id",
                "1",
                "--initial-controllers",
                "1@a:1:" + DIRECTORY_ID + ",1@b:2:" + DIRECTORY_ID);
        assertFails(
                ExitCode.USAGE,
                "--directory-id kFtEAwnxTqKW0CKbOLkH0g differs from the directory id " + DIRECTORY_ID
                        + " that --initial-controllers gives node 1",
                "format",
                "--log-dir",
                dir.toString(),
                "--node-id",
                "1",
                "--directory-id",
                "kFtEAwnxTqKW0CKbOLkH0g",
                "--initial-controllers",
                "1@a:1:" + DIRECTORY_ID);
        assertFalse(Files.exists(dir));

        Path blocked = Files.writeString(root.resolve("blocked"), "a file").resolve("data");
        assertEquals(
                ExitCode.WRITE_FAILED,
                run("format", "--log-dir", blocked.toString(), "--node-id", "1", "--standalone"));
        assertTrue(err().startsWith("krabka format: Formatting " + blocked + " failed: java.nio.file."), err());
        assertEquals(1, err().lines().count(), err());
    }

    @Test
    void bootstrapScramUsersAndAclsArePassedOnAndBadOnesAreABadArgument() throws Exception {
        Path dir = root.resolve("data");
        assertFails(
                ExitCode.USAGE,
                "The 'iterations' value must be >= 4096 for add-scram using SCRAM_SHA_256",
                "format",
                "--log-dir",
                dir.toString(),
                "--node-id",
                "1",
                "--standalone",
                "--add-scram",
                "SCRAM-SHA-256=[name=alice,password=alice-secret,iterations=100]");
        assertFails(
                ExitCode.USAGE,
                "You must supply 'permission' to add-acl",
                "format",
                "--log-dir",
                dir.toString(),
                "--node-id",
                "1",
                "--standalone",
                "--add-acl",
                "principal=User:admin,operation=ALL,resource-type=CLUSTER,resource-name=kafka-cluster");
        assertFalse(Files.exists(dir));

        assertEquals(
                ExitCode.OK,
                run(
                        "format",
                        "--log-dir",
                        dir.toString(),
                        "--node-id",
                        "1",
                        "--standalone",
                        "--add-scram",
                        "SCRAM-SHA-256=[name=alice,password=alice-secret]",
                        "--add-scram",
                        "SCRAM-SHA-512=[name=bob,password=bob-secret,iterations=8192]",
                        "--add-acl",
                        "principal=User:alice,operation=read,permission=allow,resource-type=topic,"
                                + "resource-name=orders-,pattern-type=prefixed"),
                err());
        // After the feature levels, the users and the ACL, in the order given.
        assertEquals(
                List.of("UserScramCredentialRecord", "UserScramCredentialRecord", "AccessControlEntryRecord"),
                io.krabka.kernel.format.BootstrapCheckpoint.read(dir).stream()
                        .map(record -> record.record().getClass().getSimpleName())
                        .filter(name -> !name.equals("FeatureLevelRecord"))
                        .toList());
    }

    @Test
    void invalidFeaturesAndReleaseVersionsExitFive() {
        String dir = root.resolve("data").toString();
        assertFails(
                ExitCode.INVALID_FEATURES,
                "No feature:group.version with feature level 2",
                "format",
                "--log-dir",
                dir,
                "--node-id",
                "1",
                "--standalone",
                "--feature",
                "group.version=2");
        assertFails(
                ExitCode.INVALID_FEATURES,
                "Unsupported feature: foo. Supported features are: eligible.leader.replicas.version, "
                        + "group.version, kraft.version, share.version, streams.version, transaction.version",
                "format",
                "--log-dir",
                dir,
                "--node-id",
                "1",
                "--standalone",
                "--feature",
                "foo=1");
        assertFails(
                ExitCode.INVALID_FEATURES,
                "Use --release-version instead of --feature metadata.version=X to avoid ambiguity.",
                "format",
                "--log-dir",
                dir,
                "--node-id",
                "1",
                "--standalone",
                "--feature",
                "metadata.version=20",
                "--release-version",
                "4.4");
        assertFails(
                ExitCode.INVALID_FEATURES,
                "Cannot set kraft.version to 0 if controller.quorum.voters is empty and one of "
                        + "the flags --standalone, --initial-controllers, or --no-initial-controllers is used. For dynamic controllers "
                        + "support, try removing the --feature flag for kraft.version.",
                "format",
                "--log-dir",
                dir,
                "--node-id",
                "1",
                "--standalone",
                "--feature",
                "kraft.version=0");
        assertEquals(
                ExitCode.INVALID_FEATURES,
                run("format", "--log-dir", dir, "--node-id", "1", "--standalone", "--release-version", "4.5-IV0"));
        assertTrue(
                err().startsWith(
                                "krabka format: Unknown metadata.version '4.5-IV0'. Supported metadata.version are: 3.3-IV3, "),
                err());
        assertFalse(Files.exists(root.resolve("data")));
    }

    @Test
    void flagsThatDoNotParseExitTwo() {
        String dir = root.resolve("data").toString();
        assertFails(
                ExitCode.USAGE,
                "Invalid value -5 for configuration node.id: Value must be at least 0",
                "format",
                "--log-dir",
                dir,
                "--node-id",
                "-5",
                "--standalone");
        assertFails(
                ExitCode.USAGE,
                "--node-id '2147483648' is not a number from 0 to 2147483647",
                "format",
                "--log-dir",
                dir,
                "--node-id",
                "2147483648",
                "--standalone");
        assertFails(
                ExitCode.USAGE,
                "cluster id 'my-cluster' is neither 22 characters of URL-safe base64 (Kafka's form) nor a "
                        + "hyphenated UUID",
                "format",
                "--log-dir",
                dir,
                "--node-id",
                "1",
                "--standalone",
                "--cluster-id",
                "my-cluster");
        assertFails(
                ExitCode.USAGE,
                "not a Kafka Uuid (22 URL-safe base64 characters): short",
                "format",
                "--log-dir",
                dir,
                "--node-id",
                "1",
                "--standalone",
                "--directory-id",
                "short");
        assertFails(
                ExitCode.USAGE,
                "--directory-id AAAAAAAAAAAAAAAAAAAAAA is one of the 100 ids Kafka reserves",
                "format",
                "--log-dir",
                dir,
                "--node-id",
                "1",
                "--standalone",
                "--directory-id",
                "AAAAAAAAAAAAAAAAAAAAAA");
        assertFails(
                ExitCode.USAGE,
                "--controller-listener goes with --standalone; --initial-controllers names every "
                        + "controller's listener",
                "format",
                "--log-dir",
                dir,
                "--node-id",
                "1",
                "--no-initial-controllers",
                "--controller-listener",
                "h:1");
        assertFails(
                ExitCode.USAGE,
                "controller listener '::1:9093' has an IPv6 host without brackets: write [HOST]:PORT",
                "format",
                "--log-dir",
                dir,
                "--node-id",
                "1",
                "--standalone",
                "--controller-listener",
                "::1:9093");
        assertFails(
                ExitCode.USAGE,
                "the controller listener's port 70000 is not 0 to 65535",
                "format",
                "--log-dir",
                dir,
                "--node-id",
                "1",
                "--standalone",
                "--controller-listener",
                "h:70000");
        assertFails(
                ExitCode.USAGE,
                "controller listener 'localhost' is not HOST:PORT",
                "format",
                "--log-dir",
                dir,
                "--node-id",
                "1",
                "--standalone",
                "--controller-listener",
                "localhost");
        assertFails(
                ExitCode.USAGE,
                "controller listener 'localhost:' has no port number",
                "format",
                "--log-dir",
                dir,
                "--node-id",
                "1",
                "--standalone",
                "--controller-listener",
                "localhost:");
        assertFails(
                ExitCode.USAGE,
                "the controller listener has no host",
                "format",
                "--log-dir",
                dir,
                "--node-id",
                "1",
                "--standalone",
                "--controller-listener",
                ":9093");
        assertFails(
                ExitCode.USAGE,
                "--controller-listener-name is empty",
                "format",
                "--log-dir",
                dir,
                "--node-id",
                "1",
                "--standalone",
                "--controller-listener-name",
                " ");
        assertFails(
                ExitCode.USAGE,
                "--log-dir names no directory",
                "format",
                "--log-dir",
                ",",
                "--node-id",
                "1",
                "--standalone");
        assertFails(
                ExitCode.USAGE,
                "unexpected argument 'other'",
                "format",
                "--log-dir",
                dir,
                "other",
                "--node-id",
                "1",
                "--standalone");

        assertEquals(ExitCode.USAGE, run("format", "--log-dir", dir, "--standalone"));
        assertEquals("krabka format: Missing required option: node-id\n", err());
        assertEquals(ExitCode.USAGE, run("format", "--log-dir", dir, "--node-id", "1"));
        assertTrue(err().startsWith("krabka format: Missing required option: "), err());
        assertEquals(
                ExitCode.USAGE,
                run("format", "--log-dir", dir, "--node-id", "1", "--standalone", "--no-initial-controllers"));
        assertEquals(
                "krabka format: The option 'no-initial-controllers' was specified but an option from this group has "
                        + "already been selected: 'standalone'\n",
                err());
        assertFalse(Files.exists(root.resolve("data")));
    }

    @Test
    void theStandardCommandsIncludeFormat() {
        Console console = new Console(
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));

        assertEquals(ExitCode.OK, Krabka.standard().run(new String[] {"format", "--help"}, console));

        for (String flag : List.of(
                "--log-dir",
                "--metadata-log-dir",
                "--cluster-id",
                "--node-id",
                "--directory-id",
                "--release-version",
                "--feature",
                "--standalone",
                "--initial-controllers",
                "--no-initial-controllers",
                "--controller-listener",
                "--controller-listener-name",
                "--ignore-formatted")) {
            assertTrue(out().contains(flag + " "), flag);
        }
    }

    private void assertFails(int exitCode, String message, String... args) {
        assertEquals(exitCode, run(args), err());
        assertEquals("krabka format: " + message + "\n", err());
        assertEquals("", out());
    }

    private FormatSpec spec(
            List<Path> logDirs,
            Path metadataLogDir,
            String clusterId,
            Optional<Uuid> directoryId,
            Optional<String> release,
            List<String> features,
            InitialQuorum quorum,
            String listenerName) {
        return new FormatSpec(
                logDirs, metadataLogDir, clusterId, 1, directoryId, release, features, quorum, listenerName, false);
    }

    private static Path formatDirectly(FormatSpec spec) throws Exception {
        new Formatter(CLOCK).format(spec);
        return spec.metadataLogDir();
    }

    // The same files with the same bytes, but for meta.properties' date line, and the same directory id.
    private static void assertSameFiles(Path expected, Path actual) throws IOException {
        Map<String, byte[]> want = contents(expected);
        Map<String, byte[]> got = contents(actual);
        want.put(
                "meta.properties",
                new TreeMap<>(metaProperties(expected)).toString().getBytes(StandardCharsets.UTF_8));
        got.put(
                "meta.properties",
                new TreeMap<>(metaProperties(actual)).toString().getBytes(StandardCharsets.UTF_8));
        assertSameContents(want, got);
    }

    private static void assertSameContents(Map<String, byte[]> expected, Map<String, byte[]> actual) {
        assertEquals(expected.keySet(), actual.keySet());
        expected.forEach((file, bytes) -> assertArrayEquals(bytes, actual.get(file), file));
    }

    private static Properties metaProperties(Path dir) throws IOException {
        Properties props = new Properties();
        try (InputStream in = Files.newInputStream(dir.resolve("meta.properties"))) {
            props.load(in);
        }
        return props;
    }

    private static Map<String, byte[]> contents(Path dir) throws IOException {
        Map<String, byte[]> contents = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path file : walk.filter(Files::isRegularFile).toList()) {
                contents.put(dir.relativize(file).toString(), Files.readAllBytes(file));
            }
        }
        return contents;
    }
}
