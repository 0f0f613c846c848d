package io.krabka.jlink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BuildImageTest {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    @Test
    void helpPrintsUsage() {
        assertEquals(BuildImage.OK, run("--help"));
        assertTrue(
                out().startsWith(
                                "usage: jlink/build-image --profile NAME|FILE --output DIR [--plugin-dir DIR]... [--replace]"),
                out());
    }

    @Test
    void wrongArgumentsAreUsageErrors() {
        assertEquals(
                BuildImage.USAGE,
                run("--profile", "minimal", "--output", "x", "--dist", "d", "--profiles", "p", "--force"));
        assertEquals("build-image: unknown argument '--force'", firstErrorLine());
        err.reset();
        assertEquals(BuildImage.USAGE, run("--dist", "d", "--profiles", "p", "--profile", "minimal", "--output"));
        assertEquals("build-image: --output needs a value", firstErrorLine());
        err.reset();
        assertEquals(BuildImage.USAGE, run("--profile", "minimal", "--output", "x", "--plugin-dir"));
        assertEquals("build-image: --plugin-dir needs a value", firstErrorLine());
        err.reset();
        assertEquals(BuildImage.USAGE, run("--dist", "d", "--profiles", "p", "--profile", "minimal"));
        assertEquals("build-image: missing --output", firstErrorLine());
    }

    @Test
    void failuresAreOneLine(@TempDir Path dir) throws IOException {
        DistributionTest.distribution(dir.resolve("dist"), "local");
        assertEquals(
                BuildImage.FAILURE,
                run(
                        "--dist",
                        dir.resolve("dist").toString(),
                        "--profiles",
                        "profiles",
                        "--profile",
                        "tiny",
                        "--output",
                        dir.resolve("image").toString()));
        assertEquals("build-image: unknown profile 'tiny'; profiles: full, minimal" + System.lineSeparator(), err());
        assertEquals("", out());
    }

    private int run(String... args) {
        return BuildImage.run(
                List.of(args),
                new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    private String firstErrorLine() {
        return err().lines().findFirst().orElse("");
    }
}
