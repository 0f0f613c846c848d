package io.krabka.launcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.krabka.kernel.plugin.PluginDiscovery;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code krabka verify}'s command line over the real local store (its plugin folder, as in a distribution): each refusal's exit
 * code and one line, before or without any archive; the archive's own findings are the ITs' and the verifier's.
 */
class VerifyCommandTest {
    /** The local plugin's folder, as the build unpacks it (surefire runs in the module's directory). */
    private static final Path PLUGINS = Path.of("target/test-plugins");

    @TempDir
    Path root;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int verify(String... args) throws Exception {
        Krabka krabka = new Krabka(List.of(new VerifyCommand(() -> PluginDiscovery.discover(PLUGINS))));
        String[] line = new String[args.length + 1];
        line[0] = "verify";
        System.arraycopy(args, 0, line, 1, args.length);
        return krabka.run(
                line,
                new Console(
                        new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8)));
    }

    private String errLine() {
        List<String> lines =
                err.toString(StandardCharsets.UTF_8).strip().lines().toList();
        assertEquals(1, lines.size(), "one line: " + lines);
        return lines.getFirst();
    }

    @Test
    void anEmptyArchiveIsCleanAndSaysSo() throws Exception {
        assertEquals(
                0,
                verify(
                        "--local-dir",
                        Files.createDirectories(root.resolve("archive")).toString()));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("OK: empty archive"), out.toString());
    }

    @Test
    void anExpectedHeadOfAnEmptyArchiveIsAMismatch() throws Exception {
        assertEquals(
                1,
                verify(
                        "--local-dir",
                        Files.createDirectories(root.resolve("archive")).toString(),
                        "--expect-head",
                        "ab".repeat(32)));
        assertTrue(out.toString(StandardCharsets.UTF_8).contains("HEAD MISMATCH"), out.toString());
    }

    @Test
    void theJsonVerdictIsOneDocument() throws Exception {
        assertEquals(
                0,
                verify(
                        "--local-dir",
                        Files.createDirectories(root.resolve("archive")).toString(),
                        "--format",
                        "json"));
        assertEquals(
                "ok",
                new ObjectMapper()
                        .readTree(out.toByteArray())
                        .path("verdict")
                        .path("grade")
                        .asText());
    }

    @Test
    void aMissingDirectoryIsUnreadable() throws Exception {
        assertEquals(4, verify("--local-dir", root.resolve("missing").toString()));
        assertTrue(errLine().startsWith("krabka verify: cannot read the archive "), err.toString());
    }

    @Test
    void aBackendsFlagWithoutItsBackendIsABadArgument() throws Exception {
        assertEquals(2, verify("--local-dir", root.toString(), "--region", "eu-west-1"));
        assertTrue(errLine().contains("--region goes with --bucket"), err.toString());
    }

    @Test
    void keyIdsAndPublicKeysPairByPosition() throws Exception {
        assertEquals(
                2,
                verify(
                        "--local-dir",
                        root.toString(),
                        "--key-id",
                        "a",
                        "--key-id",
                        "b",
                        "--public-key",
                        root.resolve("a.pem").toString()));
        assertTrue(errLine().contains("pair by position"), err.toString());
    }

    @Test
    void anUnreadablePublicKeyIsABadArgument() throws Exception {
        Path key = Files.writeString(root.resolve("k.pem"), "not a key");
        assertEquals(2, verify("--local-dir", root.toString(), "--key-id", "a", "--public-key", key.toString()));
        assertTrue(errLine().contains(key.toString()), err.toString());
    }

    @Test
    void aMalformedExpectedHeadIsABadArgument() throws Exception {
        assertEquals(2, verify("--local-dir", root.toString(), "--expect-head", "xyz"));
        assertTrue(errLine().startsWith("krabka verify: --expect-head"), err.toString());
    }

    @Test
    void noArchiveOrTwoAreBadArguments() throws Exception {
        assertEquals(2, verify("--deep"));
        err.reset();
        assertEquals(2, verify("--local-dir", root.toString(), "--bucket", "b"));
        assertEquals(2, verify("--local-dir", root.toString(), "--format", "xml"));
    }

    @Test
    void theHelpListsTheExitCodes() throws Exception {
        assertEquals(0, verify("--help"));
        String help = out.toString(StandardCharsets.UTF_8).replaceAll("\\s+", " ");
        assertTrue(
                help.contains("--expect-head")
                        && help.contains("3 incomplete attestation")
                        && help.contains("4 the archive cannot be read"),
                help);
    }
}
