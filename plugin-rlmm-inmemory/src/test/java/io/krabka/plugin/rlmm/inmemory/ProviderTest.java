package io.krabka.plugin.rlmm.inmemory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.ConfigType;
import io.krabka.spi.plugin.PluginKind;
import io.krabka.spi.plugin.RemoteLogMetadataManagerProvider;
import io.krabka.spi.plugin.SpiVersion;
import io.krabka.spi.storage.RemoteLogMetadataManager;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProviderTest {

    private final InMemoryRemoteLogMetadataManagerProvider provider = new InMemoryRemoteLogMetadataManagerProvider();

    @TempDir
    Path dir;

    @Test
    void declaresItself() {
        assertEquals("inmemory", provider.name());
        assertEquals(PluginKind.REMOTE_LOG_METADATA_MANAGER, provider.kind());
        assertEquals(SpiVersion.CURRENT, provider.spiVersion());
        assertTrue(SpiVersion.current().canLoad(SpiVersion.parse(provider.spiVersion())));
        assertFalse(provider.description().isBlank());
        List<ConfigKey> keys = provider.configKeys();
        assertEquals(
                List.of("snapshot.path", "tiered.storage.dir"),
                keys.stream().map(ConfigKey::name).toList());
        assertEquals(ConfigType.STRING, keys.getFirst().type());
        assertEquals(Optional.of(""), keys.getFirst().defaultValue());
        assertFalse(keys.getFirst().documentation().isBlank());
    }

    @Test
    void theModuleProvidesIt() {
        Module module = InMemoryRemoteLogMetadataManagerProvider.class.getModule();
        assertTrue(module.isNamed(), "the tests run on the module path");
        assertTrue(module.getDescriptor().provides().stream()
                .anyMatch(provides -> provides.service().equals(RemoteLogMetadataManagerProvider.class.getName())
                        && provides.providers()
                                .equals(List.of(InMemoryRemoteLogMetadataManagerProvider.class.getName()))));
        assertTrue(module.getDescriptor().exports().stream()
                .anyMatch(export -> export.source().equals("io.krabka.plugin.rlmm.inmemory") && !export.isQualified()));
    }

    @Test
    void createsAFreshUnconfiguredManagerEachTime() throws Exception {
        RemoteLogMetadataManager first = provider.create();
        RemoteLogMetadataManager second = provider.create();
        assertNotSame(first, second);
        assertInstanceOf(InMemoryRemoteLogMetadataManager.class, first);
        assertThrows(IllegalStateException.class, () -> first.listRemoteLogSegments(Fixtures.TP0));
        first.configure(Map.of());
        assertThrows(IllegalStateException.class, () -> second.listRemoteLogSegments(Fixtures.TP0));
    }

    @Test
    void configureRejectsBadSettingsAndStaysUnconfigured() throws Exception {
        RemoteLogMetadataManager manager = provider.create();
        assertMessage(
                assertThrows(ConfigException.class, () -> manager.configure(Map.of("snapshot.pth", "x.json"))),
                "snapshot.pth");
        assertMessage(
                assertThrows(ConfigException.class, () -> manager.configure(Map.of("snapshot.path", 42))),
                "snapshot.path");
        assertMessage(
                assertThrows(ConfigException.class, () -> manager.configure(Map.of("snapshot.path", dir.toString()))),
                "names a directory");
        assertMessage(
                assertThrows(
                        ConfigException.class,
                        () -> manager.configure(Map.of(
                                "snapshot.path",
                                dir.resolve("no/such/dir/s.json").toString()))),
                "does not exist");
        manager.configure(Map.of("snapshot.path", dir.resolve("s.json").toString()));
        assertEquals(Set.of(), ((InMemoryRemoteLogMetadataManager) manager).partitions());
        manager.close();
        assertTrue(Files.exists(dir.resolve("s.json")), "written at close, even when empty");
    }

    @Test
    void parsedValuesAreAcceptedAsWellAsText() {
        InMemoryRemoteLogMetadataManagerConfig config = InMemoryRemoteLogMetadataManagerConfig.parse(
                Map.of("snapshot.path", "  " + dir.resolve("s.json") + "  "));
        assertEquals(Optional.of(dir.resolve("s.json").toAbsolutePath()), config.snapshotPath());
        assertEquals(
                Optional.empty(),
                InMemoryRemoteLogMetadataManagerConfig.parse(Map.of()).snapshotPath());
    }

    private static void assertMessage(Exception e, String fragment) {
        assertTrue(e.getMessage().contains(fragment), e.getMessage());
    }
}
