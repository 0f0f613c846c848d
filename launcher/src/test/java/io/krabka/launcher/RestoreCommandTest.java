package io.krabka.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.plugin.PluginDiscovery;
import io.krabka.kernel.restore.ArchiveRestore;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Clock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code krabka restore}'s command line over the real local store (its plugin folder, as in a distribution): each
 * refusal's exit code and one line, in the order the checks run — flags, bound, target, archive — and that a
 * refused target is left as it was without the archive being looked at. The restore itself is the kernel's.
 */
class RestoreCommandTest {
    /** The local plugin's folder, as the build unpacks it (surefire runs in the module's directory). */
    private static final Path PLUGINS = Path.of("target/test-plugins");

    @TempDir
    Path root;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private Path archive;
    private Path logDir;

    @BeforeEach
    void archive() throws IOException {
        archive = Files.createDirectories(root.resolve("archive"));
        logDir = root.resolve("restored");
    }

    private int restore(String... args) {
        out.reset();
        err.reset();
        Krabka krabka = new Krabka(List.of(
                new RestoreCommand(names -> PluginDiscovery.discover(PLUGINS), new ArchiveRestore(Clock.systemUTC()))));
        String[] line = new String[args.length + 1];
        line[0] = "restore";
        System.arraycopy(args, 0, line, 1, args.length);
        return krabka.run(
                line,
                new Console(
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8)));
    }

    /** The archive, target and node every case needs, then {@code more}. */
    private int restoreWith(String... more) {
        List<String> args = new ArrayList<>(
                List.of("--archive-local", archive.toString(), "--log-dir", logDir.toString(), "--node-id", "1"));
        args.addAll(Arrays.asList(more));
        return restore(args.toArray(String[]::new));
    }

    private String errLine() {
        List<String> lines =
                err.toString(StandardCharsets.UTF_8).strip().lines().toList();
        assertEquals(1, lines.size(), "one line: " + lines);
        return lines.getFirst();
    }

    private void assertBadArgument(String expected, int exitCode) {
        assertEquals(ExitCode.USAGE, exitCode, err.toString(StandardCharsets.UTF_8));
        String line = errLine();
        assertTrue(line.startsWith("krabka restore: ") && line.contains(expected), line);
        assertEquals("", out.toString(StandardCharsets.UTF_8));
        assertFalse(Files.exists(logDir), "nothing written");
    }

    @Test
    void twoBackendsAreABadArgument() {
        assertBadArgument("archive-s3-bucket", restoreWith("--archive-s3-bucket", "b"));
        assertBadArgument(
                "archive-gcs-bucket",
                restore(
                        "--archive-s3-bucket",
                        "b",
                        "--archive-gcs-bucket",
                        "g",
                        "--log-dir",
                        logDir.toString(),
                        "--node-id",
                        "1"));
    }

    @Test
    void noBackendIsABadArgument() {
        assertBadArgument("archive", restore("--log-dir", logDir.toString(), "--node-id", "1"));
    }

    @Test
    void aRefinementOfABackendNotSelectedIsABadArgument() {
        assertBadArgument(
                "--archive-s3-region goes with --archive-s3-bucket", restoreWith("--archive-s3-region", "eu-west-1"));
        assertBadArgument(
                "--archive-s3-allow-http goes with --archive-s3-bucket", restoreWith("--archive-s3-allow-http"));
        assertBadArgument(
                "--archive-gcs-endpoint goes with --archive-gcs-bucket",
                restore(
                        "--archive-s3-bucket",
                        "b",
                        "--archive-gcs-endpoint",
                        "http://127.0.0.1:1",
                        "--log-dir",
                        logDir.toString(),
                        "--node-id",
                        "1"));
    }

    @Test
    void anAccessKeyWithoutItsSecretIsABadArgument() {
        assertBadArgument(
                "--archive-s3-access-key-id and --archive-s3-secret-access-key are given together",
                restore(
                        "--archive-s3-bucket",
                        "b",
                        "--archive-s3-access-key-id",
                        "AKIA",
                        "--log-dir",
                        logDir.toString(),
                        "--node-id",
                        "1"));
    }

    @Test
    void anExpectedHeadWithoutATrustedKeyIsABadArgument() {
        assertBadArgument(
                "--worm-expect-head needs --worm-key-id and --worm-public-key",
                restoreWith("--worm-expect-head", "orders-0-AAAAAAAAAAAAAAAAAAAAAQ=" + "ab".repeat(32)));
    }

    @Test
    void aMalformedExpectedHeadIsABadArgument() {
        assertBadArgument("the head must be 64 hex digits", restoreWith("--worm-expect-head", "orders-0-x=xyz"));
        assertBadArgument("is not PARTITION_DIR=HEX", restoreWith("--worm-expect-head", "ab".repeat(32)));
    }

    @Test
    void keyIdsAndPublicKeysPairByPosition() {
        assertBadArgument(
                "--worm-key-id and --worm-public-key pair by position: 1 key id(s), 0 public key(s)",
                restoreWith("--worm-key-id", "a"));
        assertBadArgument(
                "--worm-key-id and --worm-public-key pair by position: 0 key id(s), 1 public key(s)",
                restoreWith("--worm-public-key", root.resolve("a.pem").toString()));
    }

    @Test
    void anUnreadablePublicKeyIsABadArgument() throws IOException {
        Path key = Files.writeString(root.resolve("k.pem"), "not a key");
        assertBadArgument(
                "--worm-public-key " + key, restoreWith("--worm-key-id", "a", "--worm-public-key", key.toString()));
    }

    @Test
    void theReportIsTextOrJson() {
        assertBadArgument("--report is text or json, not 'xml'", restoreWith("--report", "xml"));
    }

    @Test
    void parallelismIsAtLeastOne() {
        assertBadArgument(
                "--parallelism is a number of partitions, 1 or more, not '0'", restoreWith("--parallelism", "0"));
        assertBadArgument("not 'many'", restoreWith("--parallelism", "many"));
    }

    @Test
    void theTargetsFlagsAreChecked() {
        assertBadArgument(
                "node.id",
                restore("--archive-local", archive.toString(), "--log-dir", logDir.toString(), "--node-id", "-1"));
        assertBadArgument("cluster id 'c'", restoreWith("--cluster-id", "c"));
        assertBadArgument(
                "--controller-listener goes with --standalone",
                restoreWith("--no-initial-controllers", "--controller-listener", "h:1"));
        assertBadArgument("--initial-controllers", restoreWith("--initial-controllers", "1-localhost:9093"));
        assertBadArgument("standalone", restoreWith("--standalone", "--no-initial-controllers"));
        assertBadArgument("node-id", restore("--archive-local", archive.toString(), "--log-dir", logDir.toString()));
    }

    @Test
    void aBoundThatDoesNotParseIsABadArgument() {
        assertBadArgument("--to-offset 'orders=5'", restoreWith("--to-offset", "orders=5"));
        assertBadArgument("--to-timestamp", restoreWith("--to-timestamp", "2026-01-01T00:00:00"));
        assertBadArgument("--exclude-producer-id", restoreWith("--exclude-producer-id", "-3"));
    }

    @Test
    void aBoundNamingATopicNotSelectedIsABadArgumentBeforeTheTargetIsLookedAt() throws IOException {
        Files.createDirectories(logDir);
        Files.writeString(logDir.resolve("meta.properties"), "node.id=7\n");
        assertEquals(ExitCode.USAGE, restoreWith("--topic", "payments", "--to-offset", "orders:0=5"));
        assertTrue(
                errLine().contains("topic 'orders' is not selected by --topic"), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aDirtyTargetIsRefusedAndLeftAsItWasBeforeTheArchiveIsOpened() throws IOException {
        Files.createDirectories(logDir.resolve("orders-0"));
        Files.writeString(logDir.resolve("meta.properties"), "cluster.id=old\nnode.id=1\n");
        Files.write(logDir.resolve("orders-0/00000000000000000000.log"), new byte[] {0, 1, 2, 3});
        Files.setLastModifiedTime(logDir.resolve("meta.properties"), FileTime.fromMillis(1_000_000_000_000L));
        Map<String, String> before = snapshot(logDir);

        int exitCode = restore(
                "--archive-local",
                root.resolve("no-such-archive").toString(),
                "--log-dir",
                logDir.toString(),
                "--node-id",
                "1");

        assertEquals(ExitCode.RESTORE_TARGET_NOT_EMPTY, exitCode, err.toString(StandardCharsets.UTF_8));
        assertTrue(errLine().contains("is not empty"), err.toString(StandardCharsets.UTF_8));
        assertEquals(before, snapshot(logDir));
        assertFalse(Files.exists(root.resolve("no-such-archive")));
    }

    @Test
    void aTargetThatIsAFileIsRefused() throws IOException {
        Files.writeString(logDir, "a file");
        assertEquals(ExitCode.RESTORE_TARGET_NOT_EMPTY, restoreWith());
        assertTrue(errLine().contains("is not a directory"), err.toString(StandardCharsets.UTF_8));
        assertEquals("a file", Files.readString(logDir));
    }

    @Test
    void aMissingArchiveDirectoryIsUnreadable() {
        assertEquals(
                ExitCode.ARCHIVE_UNREADABLE,
                restore(
                        "--archive-local",
                        root.resolve("missing").toString(),
                        "--log-dir",
                        logDir.toString(),
                        "--node-id",
                        "1"));
        assertTrue(
                errLine().startsWith("krabka restore: cannot read the archive " + root.resolve("missing")),
                err.toString(StandardCharsets.UTF_8));
        assertFalse(Files.exists(logDir), "nothing written");
    }

    @Test
    void theHelpListsEveryGroupAndTheExitCodes() {
        assertEquals(ExitCode.OK, restore("--help"));
        String help = out.toString(StandardCharsets.UTF_8).replaceAll("\\s+", " ");
        for (String part : List.of(
                "Archive:",
                "Target:",
                "Selection and bounds:",
                "Metadata:",
                "Authentication:",
                "Behaviour:",
                "--archive-s3-secret-access-key",
                "--archive-gcs-service-account-path",
                "--exclude-header",
                "--worm-expect-head",
                "--parallelism",
                "--no-initial-controllers",
                "3 the log directory is not empty",
                "5 integrity",
                "6 writing the log directory failed")) {
            assertTrue(help.contains(part), part + " in " + help);
        }
    }

    /** Every file and directory under {@code dir}: its bytes (or "dir") and modification time. */
    private static Map<String, String> snapshot(Path dir) throws IOException {
        Map<String, String> entries = new TreeMap<>();
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path path : paths.toList()) {
                String content = Files.isDirectory(path) ? "dir" : Arrays.toString(Files.readAllBytes(path));
                entries.put(dir.relativize(path).toString(), content + " @" + Files.getLastModifiedTime(path));
            }
        }
        return entries;
    }
}
