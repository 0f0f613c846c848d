package io.krabka.jlink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** An image is whole or absent: a build that fails late leaves nothing, a replaced image goes entirely. */
class ImageFailureIT {
    private static final Path DIST = Path.of(System.getProperty("krabka.dist"));

    @TempDir
    Path work;

    @Test
    void anImageThatDoesNotRunIsNotInstalled() throws IOException, InterruptedException {
        // Without the launcher jdeps and jlink succeed, and the smoke run fails: the last step before renaming.
        Path dist = work.resolve("dist");
        FileTrees.copy(DIST.resolve("bin"), dist.resolve("bin"));
        FileTrees.copy(DIST.resolve("boot"), dist.resolve("boot"));
        FileTrees.copy(DIST.resolve("lib"), dist.resolve("lib"));
        FileTrees.copy(DIST.resolve("plugins/local"), dist.resolve("plugins/local"));
        try (Stream<Path> jars = Files.list(dist.resolve("lib"))) {
            Files.delete(jars.filter(jar -> jar.getFileName().toString().startsWith("krabka-launcher-"))
                    .findFirst()
                    .orElseThrow());
        }
        Path images = Files.createDirectories(work.resolve("images"));
        String fullByPath =
                Path.of(System.getProperty("krabka.profiles"), "full.profile").toString();
        ImageRun build = ImageRun.buildImage(
                work,
                dist,
                "--profile",
                fullByPath,
                "--output",
                images.resolve("broken").toString());
        assertEquals(BuildImage.FAILURE, build.exitCode(), build.out());
        assertTrue(build.err().startsWith("build-image: smoke run: bin/krabka version exited with 1: "), build.err());
        assertTrue(build.err().contains("Module io.krabka.launcher not found"), build.err());
        assertEquals(1, build.err().lines().count(), build.err());
        try (Stream<Path> left = Files.list(images)) {
            assertEquals(List.of(), left.toList());
        }
    }

    @Test
    void aPluginDirTheImageCannotLoadFailsTheBuildAndLeavesNothing() throws IOException, InterruptedException {
        // A jar, but no provider in it: the image's kernel skips the folder, and the smoke run says why.
        Path plugin = Files.createDirectories(work.resolve("third-party/mine"));
        Files.copy(
                DIST.resolve("boot").resolve(jar(DIST.resolve("boot"), "krabka-spi-")),
                plugin.resolve("not-a-plugin.jar"));
        Path images = Files.createDirectories(work.resolve("images"));
        ImageRun build = ImageRun.buildImage(
                work,
                DIST,
                "--profile",
                "minimal",
                "--plugin-dir",
                plugin.toString(),
                "--output",
                images.resolve("mine").toString());
        assertEquals(BuildImage.FAILURE, build.exitCode(), build.out());
        assertTrue(
                build.err()
                        .startsWith("build-image: smoke run: bin/krabka plugins cannot load a plugin folder: "
                                + "plugin folder "),
                build.err());
        assertTrue(build.err().contains("/plugins/mine has no plugin provider: no jar declares one"), build.err());
        assertEquals(1, build.err().lines().count(), build.err());
        try (Stream<Path> left = Files.list(images)) {
            assertEquals(List.of(), left.toList());
        }
    }

    private static String jar(Path folder, String prefix) throws IOException {
        try (Stream<Path> jars = Files.list(folder)) {
            return jars.map(jar -> jar.getFileName().toString())
                    .filter(name -> name.startsWith(prefix))
                    .findFirst()
                    .orElseThrow();
        }
    }

    @Test
    void replaceSwapsTheWholeImage() throws IOException, InterruptedException {
        Path image = work.resolve("images/minimal");
        Files.createDirectories(image.resolve("bin/krabka").getParent());
        Files.writeString(image.resolve("bin/krabka"), "#!/bin/sh\n");
        Files.createDirectories(image.resolve("jdk"));
        Files.writeString(image.resolve("jdk/release"), "JAVA_VERSION=\"25\"\n");
        Files.writeString(image.resolve("from-the-old-image"), "old");

        ImageRun refused = ImageRun.buildImage(work, DIST, "--profile", "minimal", "--output", image.toString());
        assertEquals(BuildImage.FAILURE, refused.exitCode(), refused.out());
        assertEquals("build-image: " + image + " exists; pass --replace to replace it\n", refused.err());
        assertTrue(Files.exists(image.resolve("from-the-old-image")));

        ImageRun replaced =
                ImageRun.buildImage(work, DIST, "--profile", "minimal", "--output", image.toString(), "--replace");
        assertEquals(BuildImage.OK, replaced.exitCode(), replaced.err());
        assertFalse(Files.exists(image.resolve("from-the-old-image")));
        ImageRun version =
                ImageRun.run(work, Map.of(), image.resolve("bin/krabka").toString(), "version");
        assertEquals(0, version.exitCode(), version.err());
        try (Stream<Path> left = Files.list(work.resolve("images"))) {
            assertEquals(List.of(image), left.toList());
        }
    }
}
