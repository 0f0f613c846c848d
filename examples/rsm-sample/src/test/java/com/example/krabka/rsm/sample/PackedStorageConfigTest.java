package com.example.krabka.rsm.sample;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.PluginKind;
import io.krabka.spi.plugin.SpiVersion;
import io.krabka.spi.storage.RemoteLogSegmentId;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The provider's self-description and the settings it takes. */
class PackedStorageConfigTest {
    @TempDir
    Path work;

    @Test
    void theProviderDescribesTheSamplePlugin() {
        PackedRemoteStorageManagerProvider provider = new PackedRemoteStorageManagerProvider();
        assertEquals("sample", provider.name());
        assertEquals(PluginKind.REMOTE_STORAGE_MANAGER, provider.kind());
        assertEquals(SpiVersion.CURRENT, provider.spiVersion());
        assertEquals(List.of("dir"), provider.configKeys().stream().map(ConfigKey::name).toList());
        assertInstanceOf(PackedRemoteStorageManager.class, provider.create());
    }

    @Test
    void takesAnExistingDirectory() {
        assertEquals(work, PackedStorageConfig.parse(Map.of("dir", work.toString())).dir());
    }

    @Test
    void rejectsWhatIsNotAnExistingWritableDirectory() throws IOException {
        Path file = Files.writeString(work.resolve("file"), "not a directory");
        Path missing = work.resolve("missing");
        assertEquals("invalid value " + missing + " for dir: no such directory", rejected(Map.of("dir", missing.toString())));
        assertEquals("invalid value " + file + " for dir: not a directory", rejected(Map.of("dir", file.toString())));
        assertEquals("invalid value \"\" for dir: must not be empty", rejected(Map.of("dir", " ")));
        assertEquals("unknown setting delete.enable; known: dir", rejected(Map.of("dir", work.toString(), "delete.enable", "false")));
        assertEquals("missing required setting dir: " + PackedStorageConfig.KEYS.getFirst().documentation(), rejected(Map.of()));
    }

    @Test
    void anInstanceIsConfiguredOnceAndNotUsedBefore() {
        PackedRemoteStorageManager rsm = new PackedRemoteStorageManager();
        RemoteLogSegmentMetadata segment = new RemoteLogSegmentMetadata(
                RemoteLogSegmentId.generateNew(new TopicIdPartition(Uuid.randomUuid(), "orders", 0)), 0, 9, 1L, 1, 2L, 10,
                new TreeMap<>(Map.of(0, 0L)), true);
        IllegalStateException unconfigured = assertThrows(IllegalStateException.class, () -> rsm.deleteLogSegmentData(segment));
        assertEquals("the pack remote storage manager is not configured; call configure() first", unconfigured.getMessage());
        rsm.configure(Map.of("dir", work.toString()));
        assertThrows(IllegalStateException.class, () -> rsm.configure(Map.of("dir", work.toString())));
    }

    private static String rejected(Map<String, ?> configs) {
        return assertThrows(ConfigException.class, () -> PackedStorageConfig.parse(configs)).getMessage();
    }
}
