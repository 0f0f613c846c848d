package io.krabka.kernel.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.storage.RemoteLogMetadataManager;
import io.krabka.spi.storage.RemoteStorageManager;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PluginIsolationTest {
    private static final Map<String, String> SETTINGS = Map.of("bucket", "b");

    @TempDir
    Path root;

    private TestPlugins plugins;

    @BeforeEach
    void setUp() {
        plugins = new TestPlugins(root);
    }

    @Test
    void pluginsBundlingDifferentVersionsOfOneLibraryLoadSideBySide() throws Exception {
        plugins.probe("layer-one").withHelper("1").modular();
        plugins.probe("layer-two").withHelper("2").modular();
        plugins.probe("loader-one").withHelper("1").plain();
        plugins.probe("loader-two").withHelper("2").plain();
        PluginRegistry registry = PluginDiscovery.discover(plugins.pluginsDirectory());

        List<String> helpers = List.of("layer-one", "layer-two", "loader-one", "loader-two").stream()
                .map(name -> helperVersion(registry, name))
                .toList();

        assertEquals(List.of("1", "2", "1", "2"), helpers);
    }

    private static String helperVersion(PluginRegistry registry, String name) {
        try (RemoteStorageManager probe = registry.createRemoteStorageManager(name, SETTINGS)) {
            String report = TestPlugins.report(probe);
            return report.substring(report.indexOf("helper=") + "helper=".length());
        } catch (Exception e) {
            throw new AssertionError(name + ": " + e, e);
        }
    }

    @Test
    void kernelClassesAreHiddenFromPluginsOfBothIsolations() throws Exception {
        plugins.probe("modular").modular();
        plugins.probe("plain").withHelper("1").plain();
        PluginRegistry registry = PluginDiscovery.discover(plugins.pluginsDirectory());

        try (RemoteStorageManager modular = registry.createRemoteStorageManager("modular", SETTINGS);
                RemoteStorageManager plain = registry.createRemoteStorageManager("plain", SETTINGS)) {
            assertTrue(TestPlugins.report(modular).contains(" kernel=hidden "), TestPlugins.report(modular));
            assertTrue(TestPlugins.report(plain).contains(" kernel=hidden "), TestPlugins.report(plain));
        }
    }

    @Test
    void everyCallRunsWithThePluginsLoaderAsContextAndRestoresTheCallers() throws Exception {
        plugins.probe("modular").modular();
        plugins.probe("plain").plain();
        plugins.ledger("ledger");
        PluginRegistry registry = PluginDiscovery.discover(plugins.pluginsDirectory());
        ClassLoader callers = Thread.currentThread().getContextClassLoader();

        try (RemoteStorageManager modular = registry.createRemoteStorageManager("modular", SETTINGS);
                RemoteStorageManager plain = registry.createRemoteStorageManager("plain", SETTINGS);
                RemoteLogMetadataManager ledger = registry.createRemoteLogMetadataManager("ledger", Map.of())) {
            assertTrue(TestPlugins.report(modular).startsWith("create=plugin configure=plugin call=plugin "));
            assertTrue(TestPlugins.report(plain).startsWith("create=plugin configure=plugin call=plugin "));
            assertTrue(ledger.isReady(new TopicIdPartition(Uuid.randomUuid(), "orders", 0)));
            assertSame(callers, Thread.currentThread().getContextClassLoader());
        }
    }

    @Test
    void withoutTheWrapperAPluginCallRunsUnderTheCallersContextLoader() throws Exception {
        plugins.ledger("ledger");
        LoadedPlugin ledger = PluginFolder.load(plugins.folder("ledger")).getFirst();
        RemoteLogMetadataManager bare =
                (RemoteLogMetadataManager) ledger.provider().create();

        boolean ownLoader = bare.isReady(new TopicIdPartition(Uuid.randomUuid(), "orders", 0));

        assertFalse(ownLoader, "the probe must be able to tell the loaders apart");
    }
}
