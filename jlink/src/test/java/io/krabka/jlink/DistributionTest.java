package io.krabka.jlink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class DistributionTest {

    @Test
    void needsBootAndLibFolders(@TempDir Path home) throws IOException {
        assertEquals(
                "not a Krabka distribution: " + home + " has no boot/ (./krabka builds one)",
                assertThrows(ImageException.class, () -> new Distribution(home)).getMessage());
        Files.createDirectories(home.resolve("boot"));
        assertEquals(
                "not a Krabka distribution: " + home + " has no lib/ (./krabka builds one)",
                assertThrows(ImageException.class, () -> new Distribution(home)).getMessage());
    }

    @Test
    void pluginsAreTheFoldersUnderPlugins(@TempDir Path home) throws IOException {
        Files.createDirectories(home.resolve("boot"));
        Files.createDirectories(home.resolve("lib"));
        assertEquals(List.of(), new Distribution(home).plugins());
        Files.createDirectories(home.resolve("plugins/s3"));
        Files.createDirectories(home.resolve("plugins/local"));
        Files.writeString(home.resolve("plugins/README"), "a file, not a plugin");
        assertEquals(List.of("local", "s3"), new Distribution(home).plugins());
    }

    @Test
    void selectsTheProfilesPluginsInItsOrder(@TempDir Path home) throws IOException {
        Distribution distribution = distribution(home, "inmemory", "local", "s3");
        assertEquals(List.of("s3", "local"), distribution.select(new Profile("p", List.of("s3", "local"), false)));
        assertEquals(List.of("inmemory", "local", "s3"), distribution.select(new Profile("all", List.of(), true)));
    }

    @Test
    void unknownPluginsAreNamedWithThoseAvailable(@TempDir Path home) throws IOException {
        Distribution distribution = distribution(home, "inmemory", "local");
        assertEquals(
                "unknown plugin s3 in profile p; plugins available: inmemory, local",
                assertThrows(
                                ImageException.class,
                                () -> distribution.select(new Profile("p", List.of("local", "s3"), false)))
                        .getMessage());
        assertEquals(
                "unknown plugins s3, gcs in profile p; plugins available: inmemory, local",
                assertThrows(
                                ImageException.class,
                                () -> distribution.select(new Profile("p", List.of("s3", "gcs"), false)))
                        .getMessage());
    }

    @Test
    void jarsAreSortedAndAFolderWithoutAnyIsAnError(@TempDir Path home) throws IOException {
        Path folder = Files.createDirectories(home.resolve("plugins/local"));
        assertEquals(
                folder + " holds no jars",
                assertThrows(ImageException.class, () -> Distribution.jars(folder))
                        .getMessage());
        Files.writeString(folder.resolve("b.jar"), "");
        Files.writeString(folder.resolve("a.jar"), "");
        Files.writeString(folder.resolve("notes.txt"), "");
        assertEquals(List.of(folder.resolve("a.jar"), folder.resolve("b.jar")), Distribution.jars(folder));
    }

    static Distribution distribution(Path home, String... plugins) throws IOException {
        Files.createDirectories(home.resolve("boot"));
        Files.createDirectories(home.resolve("lib"));
        for (String plugin : plugins) {
            Files.createDirectories(home.resolve("plugins").resolve(plugin));
        }
        return new Distribution(home);
    }
}
