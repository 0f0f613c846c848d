package io.krabka.jlink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProfileTest {

    @Test
    void readsPluginNamesInOrderSkippingCommentsAndBlankLines() {
        Profile profile = Profile.parse("p", List.of("# header", "", "  local  # the remote tier", "inmemory", "   "));
        assertEquals(new Profile("p", List.of("local", "inmemory"), false), profile);
    }

    @Test
    void starIsEveryPlugin() {
        assertEquals(new Profile("all", List.of(), true), Profile.parse("all", List.of("# all of them", "*")));
    }

    @Test
    void errorsNameTheProfileAndLine() {
        assertEquals(
                "profile p, line 2: 'local inmemory' is not a plugin name (one per line, or * for every plugin)",
                assertThrows(ImageException.class, () -> Profile.parse("p", List.of("# x", "local inmemory")))
                        .getMessage());
        assertEquals(
                "profile p, line 3: plugin local is named twice",
                assertThrows(ImageException.class, () -> Profile.parse("p", List.of("local", "inmemory", "local")))
                        .getMessage());
        assertEquals(
                "profile p, line 2: * (every plugin) cannot be combined with plugin names",
                assertThrows(ImageException.class, () -> Profile.parse("p", List.of("local", "*")))
                        .getMessage());
        assertEquals(
                "profile p, line 2: * (every plugin) cannot be combined with plugin names",
                assertThrows(ImageException.class, () -> Profile.parse("p", List.of("*", "local")))
                        .getMessage());
        assertEquals(
                "profile p names no plugin (one per line, or * for every plugin)",
                assertThrows(ImageException.class, () -> Profile.parse("p", List.of("# local", "")))
                        .getMessage());
        assertEquals(
                "profile p, line 1: '../lib' is not a plugin name (one per line, or * for every plugin)",
                assertThrows(ImageException.class, () -> Profile.parse("p", List.of("../lib")))
                        .getMessage());
    }

    @Test
    void loadsByNameFromTheFolderOrByPath(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("small.profile"), "local\n");
        Files.writeString(dir.resolve("README.md"), "not a profile\n");
        Path elsewhere = Files.writeString(dir.resolve("custom"), "inmemory\n");
        assertEquals(new Profile("small", List.of("local"), false), Profile.load(dir, "small"));
        assertEquals(new Profile("custom", List.of("inmemory"), false), Profile.load(dir, elsewhere.toString()));
        assertEquals(
                new Profile("small", List.of("local"), false), Profile.load(Path.of("unused"), dir + "/small.profile"));
    }

    @Test
    void anUnknownNameListsTheProfiles(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("b.profile"), "local\n");
        Files.writeString(dir.resolve("a.profile"), "*\n");
        assertEquals(
                "unknown profile 'c'; profiles: a, b",
                assertThrows(ImageException.class, () -> Profile.load(dir, "c")).getMessage());
        ImageException missingFile = assertThrows(ImageException.class, () -> Profile.load(dir, dir + "/c.profile"));
        assertTrue(
                missingFile.getMessage().startsWith("cannot read profile " + dir + "/c.profile"),
                missingFile.getMessage());
    }

    @Test
    void theShippedProfilesRead() {
        Path shipped = Path.of("profiles");
        assertEquals(List.of("full", "minimal"), Profile.names(shipped));
        assertEquals(
                List.of("local", "inmemory", "topic"),
                Profile.load(shipped, "minimal").plugins());
        assertEquals(new Profile("full", List.of(), true), Profile.load(shipped, "full"));
    }
}
