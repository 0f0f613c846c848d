package io.krabka.plugin.rsm.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.plugin.PluginConfig;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LocalStorageConfigTest {
    @TempDir
    Path dir;

    @Test
    void parsesTextAndFillsDefaults() {
        LocalStorageConfig config = LocalStorageConfig.parse(Map.of("dir", dir.toString()));
        assertEquals(dir.toAbsolutePath().normalize(), config.dir());
        assertTrue(config.deleteEnabled());
        assertTrue(config.fsync());
        LocalStorageConfig off =
                LocalStorageConfig.parse(Map.of("dir", dir + "/.", "delete.enable", "false", "fsync.enable", "FALSE"));
        assertEquals(dir, off.dir());
        assertFalse(off.deleteEnabled());
        assertFalse(off.fsync());
    }

    @Test
    void theBrokersTieredStorageDirIsTheDirectoryWhenDirIsNotSet() {
        assertEquals(
                dir.toAbsolutePath().normalize(),
                LocalStorageConfig.parse(Map.of("tiered.storage.dir", dir.toString()))
                        .dir());
        Path other = dir.resolve("other");
        assertEquals(
                "invalid value " + other + " for dir: no such directory",
                assertThrows(
                                ConfigException.class,
                                () -> LocalStorageConfig.parse(
                                        Map.of("tiered.storage.dir", dir.toString(), "dir", other.toString())))
                        .getMessage());
    }

    @Test
    void aKafkaLogDirectoryIsRefusedForKafkaWouldNotStartOnIt() throws IOException {
        Files.writeString(dir.resolve("meta.properties"), "version=1\n");
        assertEquals(
                "invalid value " + dir.toAbsolutePath().normalize() + " for dir: a Kafka log directory (it holds "
                        + "meta.properties), where Kafka's LogManager refuses kafka-tiered-storage/; use a directory of its own",
                assertThrows(ConfigException.class, () -> LocalStorageConfig.parse(Map.of("dir", dir.toString())))
                        .getMessage());
    }

    @Test
    void takesWhatTheKernelAlreadyParsed() {
        PluginConfig parsed =
                PluginConfig.parse(LocalStorageConfig.KEYS, Map.of("dir", dir.toString(), "delete.enable", "false"));
        assertFalse(LocalStorageConfig.parse(parsed.values()).deleteEnabled());
    }

    @Test
    void errorsNameTheKeyAndThePath() throws IOException {
        assertEquals(
                LocalStorageConfig.MISSING_DIR,
                assertThrows(ConfigException.class, () -> LocalStorageConfig.parse(Map.of()))
                        .getMessage());
        Path missing = dir.resolve("absent");
        assertEquals(
                "invalid value " + missing + " for dir: no such directory",
                assertThrows(ConfigException.class, () -> LocalStorageConfig.parse(Map.of("dir", missing.toString())))
                        .getMessage());
        Path file = Files.createFile(dir.resolve("file"));
        assertEquals(
                "invalid value " + file + " for dir: not a directory",
                assertThrows(ConfigException.class, () -> LocalStorageConfig.parse(Map.of("dir", file.toString())))
                        .getMessage());
        assertEquals(
                "invalid value maybe for delete.enable: expected boolean",
                assertThrows(
                                ConfigException.class,
                                () -> LocalStorageConfig.parse(Map.of("dir", dir.toString(), "delete.enable", "maybe")))
                        .getMessage());
        assertEquals(
                "unknown setting transferer.class; known: dir, tiered.storage.dir, delete.enable, fsync.enable, "
                        + "delete.on.close",
                assertThrows(
                                ConfigException.class,
                                () -> LocalStorageConfig.parse(Map.of(
                                        "dir",
                                        dir.toString(),
                                        "transferer.class",
                                        "org.apache.kafka.server.log.remote.storage.LocalTieredStorage")))
                        .getMessage());
        assertEquals(
                "unknown setting delete.on.close; known: dir, tiered.storage.dir, delete.enable, fsync.enable",
                assertThrows(
                                ConfigException.class,
                                () -> LocalStorageConfig.parse(
                                        LocalStorageConfig.STORE_KEYS,
                                        Map.of("dir", dir.toString(), "delete.on.close", "true")))
                        .getMessage(),
                "the object store's keys");
        assertEquals(
                "invalid value sometimes for delete.on.close: expected boolean",
                assertThrows(
                                ConfigException.class,
                                () -> LocalStorageConfig.parse(
                                        Map.of("dir", dir.toString(), "delete.on.close", "sometimes")))
                        .getMessage());
        assertEquals(
                LocalStorageConfig.MISSING_DIR,
                assertThrows(ConfigException.class, () -> LocalStorageConfig.parse(Map.of("dir", "  ")))
                        .getMessage());
        assertEquals(
                "invalid value a\u0000b for dir: not a path: Nul character not allowed: a\u0000b",
                assertThrows(ConfigException.class, () -> LocalStorageConfig.parse(Map.of("dir", "a\u0000b")))
                        .getMessage());
    }
}
