package io.krabka.jlink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the builder refuses before it writes anything; building real images is in the ITs. */
class ImageBuilderTest {
    private static final Profile LOCAL = new Profile("p", List.of("local"), false);

    @Test
    void refusesAnExistingOutputUnlessAskedToReplaceIt(@TempDir Path dir) throws IOException {
        Path output = Files.createDirectories(dir.resolve("out"));
        Files.writeString(output.resolve("keep"), "mine");
        ImageException e =
                assertThrows(ImageException.class, () -> builder(dir).build(LOCAL, List.of(), output, false));
        assertEquals(output + " exists; pass --replace to replace it", e.getMessage());
        assertEquals("mine", Files.readString(output.resolve("keep")));
        assertEquals(List.of("dist", "out"), names(dir));
    }

    @Test
    void replacesOnlyAKrabkaImage(@TempDir Path dir) throws IOException {
        Path output = Files.createDirectories(dir.resolve("home"));
        Files.writeString(output.resolve("keep"), "mine");
        ImageException e = assertThrows(ImageException.class, () -> builder(dir).build(LOCAL, List.of(), output, true));
        assertEquals(output + " exists and is not a Krabka image; not replacing it", e.getMessage());
        assertEquals("mine", Files.readString(output.resolve("keep")));
    }

    @Test
    void refusesAnOutputInsideTheDistribution(@TempDir Path dir) throws IOException {
        ImageBuilder builder = builder(dir);
        Path output = dir.resolve("dist/plugins/image");
        assertEquals(
                "the output " + output + " is inside the distribution " + dir.resolve("dist"),
                assertThrows(ImageException.class, () -> builder.build(LOCAL, List.of(), output, false))
                        .getMessage());
    }

    @Test
    void anUnknownPluginWritesNothing(@TempDir Path dir) throws IOException {
        ImageBuilder builder = builder(dir);
        assertThrows(
                ImageException.class,
                () -> builder.build(
                        new Profile("p", List.of("s3"), false), List.of(), dir.resolve("out/image"), false));
        assertEquals(List.of("dist"), names(dir));
    }

    @Test
    void aPluginDirThatIsNoPluginFolderOrTakesATakenNameWritesNothing(@TempDir Path dir) throws IOException {
        ImageBuilder builder = builder(dir);
        Path output = dir.resolve("out/image");
        Path missing = dir.resolve("elsewhere/mine");
        assertEquals(
                "--plugin-dir " + missing + " is not a directory",
                assertThrows(ImageException.class, () -> builder.build(LOCAL, List.of(missing), output, false))
                        .getMessage());
        Path empty = Files.createDirectories(dir.resolve("elsewhere/empty"));
        assertEquals(
                empty + " holds no jars",
                assertThrows(ImageException.class, () -> builder.build(LOCAL, List.of(empty), output, false))
                        .getMessage());
        Path local = Files.createDirectories(dir.resolve("elsewhere/local"));
        Files.writeString(local.resolve("mine.jar"), "");
        assertEquals(
                "--plugin-dir " + local + ": the image has a plugin folder named local already, from "
                        + dir.resolve("dist/plugins/local") + "; rename one of the folders",
                assertThrows(ImageException.class, () -> builder.build(LOCAL, List.of(local), output, false))
                        .getMessage());
        assertEquals(List.of("dist", "elsewhere"), names(dir));
    }

    @Test
    void anImageHasTheStartScriptAndALinkedJdk(@TempDir Path dir) throws IOException {
        Path image = dir.resolve("image");
        Files.createDirectories(image.resolve("bin/krabka").getParent());
        Files.writeString(image.resolve("bin/krabka"), "#!/bin/sh\n");
        assertFalse(ImageBuilder.isImage(image));
        Files.createDirectories(image.resolve("jdk"));
        Files.writeString(image.resolve("jdk/release"), "JAVA_VERSION=\"25\"\n");
        assertTrue(ImageBuilder.isImage(image));
    }

    private static ImageBuilder builder(Path dir) throws IOException {
        Distribution distribution = DistributionTest.distribution(dir.resolve("dist"), "local");
        return new ImageBuilder(distribution, new JdkModules(Tool.find("jdeps")), Tool.find("jlink"));
    }

    private static List<String> names(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(f -> f.getFileName().toString()).sorted().toList();
        }
    }
}
