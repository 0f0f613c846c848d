package io.krabka.kernel.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.plugin.PluginKind;
import io.krabka.spi.storage.RemoteLogMetadataManager;
import io.krabka.spi.storage.RemoteStorageManager;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class PluginRegistryTest {
    @TempDir
    static Path root;

    private static PluginRegistry registry;

    /** Building jars is the slow part; the registry is immutable, so the tests share one. */
    @BeforeAll
    static void discover() {
        TestPlugins plugins = new TestPlugins(root);
        plugins.probe("alpha").modular();
        plugins.probe("beta").plain();
        plugins.ledger("ledger");
        registry = PluginDiscovery.discover(plugins.pluginsDirectory());
    }

    @Test
    void anInstanceGetsItsSettingsParsedWithDefaultsFilledIn() throws Exception {
        try (RemoteStorageManager alpha = registry.createRemoteStorageManager("alpha", Map.of("bucket", " tiered "));
                RemoteStorageManager beta =
                        registry.createRemoteStorageManager("beta", Map.of("bucket", "b", "parts", "7"))) {
            assertEquals(
                    "create=plugin configure=plugin call=plugin config={bucket=tiered, parts=3} kernel=hidden"
                            + " helper=none",
                    TestPlugins.report(alpha));
            assertEquals(
                    "create=plugin configure=plugin call=plugin config={bucket=b, parts=7} kernel=hidden"
                            + " helper=none",
                    TestPlugins.report(beta));
        }
    }

    @Test
    void createGivesTheInterfaceOfTheKind() throws Exception {
        try (var rsm = (RemoteStorageManager)
                        registry.create(PluginKind.REMOTE_STORAGE_MANAGER, "alpha", Map.of("bucket", "b"));
                var rlmm = (RemoteLogMetadataManager)
                        registry.create(PluginKind.REMOTE_LOG_METADATA_MANAGER, "ledger", Map.of())) {
            assertInstanceOf(ClassLoaderAwareRemoteStorageManager.class, rsm);
            assertInstanceOf(ClassLoaderAwareRemoteLogMetadataManager.class, rlmm);
        }
    }

    @Test
    void discoveryNeverCreatesAnInstanceAndAFailingCreateNamesThePlugin() {
        TestPlugins fragile = new TestPlugins(root.resolve("fragile"));
        fragile.probe("fragile").failingToCreate("out of licences").modular();
        PluginRegistry found = PluginDiscovery.discover(fragile.pluginsDirectory());

        PluginLoadException e = assertThrows(
                PluginLoadException.class, () -> found.createRemoteStorageManager("fragile", Map.of("bucket", "b")));

        assertEquals(
                "plugin 'fragile' of com.example.fragile (" + fragile.folder("fragile") + ") failed to create an"
                        + " instance: java.lang.IllegalStateException: out of licences",
                e.getMessage());
    }

    @Test
    void anUnknownSettingIsAConfigExceptionNamingIt() {
        ConfigException e = assertThrows(
                ConfigException.class,
                () -> registry.createRemoteStorageManager("alpha", Map.of("bucket", "b", "colour", "red")));

        assertEquals("unknown setting colour; known: bucket, parts", e.getMessage());
    }

    @Test
    void aMissingRequiredSettingIsAConfigExceptionNamingIt() {
        ConfigException e =
                assertThrows(ConfigException.class, () -> registry.createRemoteStorageManager("beta", Map.of()));

        assertEquals("missing required setting bucket: Where segments go.", e.getMessage());
    }

    @Test
    void aValueOfTheWrongTypeIsAConfigExceptionNamingTheKey() {
        ConfigException e = assertThrows(
                ConfigException.class,
                () -> registry.createRemoteStorageManager("alpha", Map.of("bucket", "b", "parts", "many")));

        assertEquals("invalid value many for parts: expected int", e.getMessage());
    }

    @Test
    void anUnknownNameListsTheKnownNamesOfThatKind() {
        PluginLoadException e =
                assertThrows(PluginLoadException.class, () -> registry.createRemoteStorageManager("ledger", Map.of()));

        assertEquals("unknown REMOTE_STORAGE_MANAGER plugin 'ledger'; known: alpha, beta", e.getMessage());
    }

    @Test
    void anUnknownNameOfAKindWithoutPluginsSaysThereAreNone() {
        TestPlugins only = new TestPlugins(root.resolve("other"));
        only.probe("alpha").plain();
        PluginRegistry storageOnly = PluginDiscovery.discover(only.pluginsDirectory());

        PluginLoadException e = assertThrows(
                PluginLoadException.class, () -> storageOnly.createRemoteLogMetadataManager("inmemory", Map.of()));

        assertEquals("unknown REMOTE_LOG_METADATA_MANAGER plugin 'inmemory'; there are none", e.getMessage());
    }
}
