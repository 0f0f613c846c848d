package io.krabka.plugin.rsm.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.spi.objectstore.RetentionMode;
import io.krabka.testkit.ObjectStoreConformance;
import io.krabka.testkit.ObjectStores;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/** The object-store kit against the local directory store, and what only a directory shows. */
class LocalObjectStoreConformanceTest extends ObjectStoreConformance {
    private Path dir;

    @Override
    protected ObjectStore createObjectStore(Path scratch) throws Exception {
        dir = scratch;
        return ObjectStores.open("local", Map.of("dir", scratch.toString()));
    }

    @Test
    void objectsAreFilesOfKafkasLocalTieredStorageRootAndNoTemporaryFileStays() throws Exception {
        store().create(
                        "t-0-AAAAAAAAAAAAAAAAAAAAAQ/00000000000000000000-AAAAAAAAAAAAAAAAAAAAAg.log",
                        ByteBuffer.wrap(new byte[5]));
        Path file = dir.resolve(
                "kafka-tiered-storage/t-0-AAAAAAAAAAAAAAAAAAAAAQ/" + "00000000000000000000-AAAAAAAAAAAAAAAAAAAAAg.log");
        assertEquals(5, Files.size(file));
        try (Stream<Path> files = Files.list(file.getParent())) {
            assertEquals(1, files.count(), "only the object itself is left in its directory");
        }
    }

    @Test
    void aDirectoryEnforcesNothingAndKeepsNoVersions() throws Exception {
        assertEquals(RetentionMode.NONE, store().protection().mode());
        store().put("k", ByteBuffer.wrap(new byte[1]));
        assertEquals(Optional.empty(), store().head("k", Optional.of("1")));
        assertEquals(
                RetentionMode.NONE,
                store().head("k", Optional.empty()).orElseThrow().retention());
    }

    @Test
    void keysThatCouldLeaveTheStoreAreRefused() {
        for (String key : new String[] {"../x", "a//b", "/abs", "a/./b", "a/.."}) {
            assertThrows(IllegalArgumentException.class, () -> store().put(key, ByteBuffer.wrap(new byte[1])), key);
        }
        assertTrue(Files.notExists(dir.resolve("x")));
    }
}
