package io.krabka.kernel.broker;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TieredStorageDirMigrationTest {

    @TempDir
    Path dir;

    @Test
    void theTieredStorageDirIsASiblingOfTheFirstLogDir() {
        BrokerConfig config = BrokerConfig.fromProps(Map.of(
                "node.id",
                "1",
                "process.roles",
                "broker,controller",
                "log.dirs",
                dir.resolve("data") + "/," + dir.resolve("more")));
        assertEquals(dir.resolve("data-tiered"), config.tieredStorageDir());
    }

    @Test
    void anEarlierLayoutMovesOnceAndKeepsEveryFile() throws IOException {
        Path logDir = Files.createDirectories(dir.resolve("data"));
        Path tiered = dir.resolve("data-tiered");
        Files.createDirectories(logDir.resolve("orders-0"));
        Files.createDirectories(logDir.resolve("remote-log-index-cache"));
        for (String name : TieredStorageDirMigration.MOVED) {
            Files.writeString(
                    Files.createDirectories(logDir.resolve(name).resolve("inner"))
                            .resolve("file"),
                    name);
        }
        TieredStorageDirMigration.migrate(logDir, tiered);
        for (String name : TieredStorageDirMigration.MOVED) {
            assertFalse(Files.exists(logDir.resolve(name)), name);
            assertEquals(name, Files.readString(tiered.resolve(name).resolve("inner/file")));
        }
        assertTrue(Files.isDirectory(logDir.resolve("orders-0")));
        assertTrue(Files.isDirectory(logDir.resolve("remote-log-index-cache")));
        // A second start finds nothing to move.
        TieredStorageDirMigration.migrate(logDir, tiered);
        assertEquals("kafka-tiered-storage", Files.readString(tiered.resolve("kafka-tiered-storage/inner/file")));
    }

    @Test
    void aDirectoryInBothPlacesIsRefusedAndNothingMoves() throws IOException {
        Path logDir = Files.createDirectories(dir.resolve("data"));
        Path tiered = dir.resolve("data-tiered");
        Files.createDirectories(logDir.resolve("remote-log-metadata"));
        Files.createDirectories(tiered.resolve("remote-log-metadata"));
        IOException refused = assertThrows(IOException.class, () -> TieredStorageDirMigration.migrate(logDir, tiered));
        assertEquals(
                "Both " + logDir.resolve("remote-log-metadata") + " and " + tiered.resolve("remote-log-metadata")
                        + " exist: Krabka keeps remote-log-metadata in " + tiered
                        + " now; remove the one that is out of date",
                refused.getMessage());
        assertTrue(Files.isDirectory(logDir.resolve("remote-log-metadata")));
    }
}
