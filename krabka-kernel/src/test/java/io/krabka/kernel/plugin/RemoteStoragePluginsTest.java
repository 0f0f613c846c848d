package io.krabka.kernel.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.kernel.metrics.MetricsRegistry;
import io.krabka.kernel.metrics.RegistryPluginMetrics;
import io.krabka.spi.storage.RemoteStorageManager;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RemoteStoragePluginsTest {
    /** None of these managers works over an object store. */
    private static final RemoteStoragePlugins.Contexts NO_STORES = (name, store, storeName, metrics) -> {
        throw new AssertionError("no store-backed manager here: " + name);
    };

    @TempDir
    static Path root;

    private static RemoteStoragePlugins plugins;
    private static Path pluginsDirectory;
    private static Path classPathJar;

    @BeforeAll
    static void discover() {
        TestPlugins built = new TestPlugins(root);
        built.probe("alpha").modular();
        // Not in the plugins directory: reachable only through a class path, as Kafka's class.path key gives one.
        classPathJar = new TestPlugins(root.resolve("elsewhere")).probe("gamma").plain();
        pluginsDirectory = built.pluginsDirectory();
        plugins = new RemoteStoragePlugins(PluginDiscovery.discover(pluginsDirectory));
    }

    @Test
    void aPluginGetsWhatTheBrokerOffersOnlyWhenItDeclaresTheKeyAndItsOwnSettingsWin() throws Exception {
        Map<String, Object> offered = Map.of("bucket", "offered", "broker.id", 1);
        try (RemoteStorageManager offeredOnly = plugins.remoteStorageManager(
                        new PluginSelection("alpha", List.of(), Map.of(), offered), NO_STORES);
                RemoteStorageManager ownWins = plugins.remoteStorageManager(
                        new PluginSelection("alpha", List.of(), Map.of("bucket", "mine"), offered), NO_STORES)) {
            assertEquals(
                    "create=plugin configure=plugin call=plugin config={bucket=offered, parts=3} kernel=hidden"
                            + " helper=none",
                    TestPlugins.report(offeredOnly));
            assertEquals(
                    "create=plugin configure=plugin call=plugin config={bucket=mine, parts=3} kernel=hidden"
                            + " helper=none",
                    TestPlugins.report(ownWins));
        }
    }

    @Test
    void aMonitorablePluginPublishesUnderItsNameAfterConfigureAndItsMetricsGoWhenItCloses() throws Exception {
        try (MetricsRegistry registry = MetricsRegistry.unpublished()) {
            RemoteStoragePlugins published = new RemoteStoragePlugins(PluginDiscovery.discover(pluginsDirectory)
                    .withMetrics(
                            (kind, name) -> RegistryPluginMetrics.of(registry, "kafka.log.remote", kind.name(), name)));
            String series = "kafka_log_remote_remote_storage_manager_probereportspersec_count{plugin=\"alpha\"} ";
            try (RemoteStorageManager probe = published.remoteStorageManager(
                    new PluginSelection("alpha", List.of(), Map.of("bucket", "b"), Map.of()), NO_STORES)) {
                assertEquals("metrics=after-configure", TestPlugins.metricsReport(probe));
                TestPlugins.report(probe);
                assertTrue(registry.prometheusText().contains(series + "2"), registry.prometheusText());
                assertTrue(
                        registry.prometheusText()
                                .contains(
                                        "kafka_log_remote_remote_storage_manager_probeconfigs_value{plugin=\"alpha\"} 2"),
                        registry.prometheusText());
            }
            assertEquals("", registry.prometheusText());
        }
    }

    @Test
    void aClassPathPluginIsHandedItsMetricsToo() throws Exception {
        try (MetricsRegistry registry = MetricsRegistry.unpublished()) {
            RemoteStoragePlugins published = new RemoteStoragePlugins(PluginDiscovery.discover(pluginsDirectory)
                    .withMetrics(
                            (kind, name) -> RegistryPluginMetrics.of(registry, "kafka.log.remote", kind.name(), name)));
            try (RemoteStorageManager probe = published.remoteStorageManager(
                    new PluginSelection("com.example.gamma.ProbeStorage", List.of(classPathJar), Map.of(), Map.of()),
                    NO_STORES)) {
                assertEquals("metrics=after-configure", TestPlugins.metricsReport(probe));
                assertTrue(
                        registry.prometheusText().contains("{plugin=\"com.example.gamma.ProbeStorage\"} 1"),
                        registry.prometheusText());
            }
            assertEquals("", registry.prometheusText());
        }
    }

    @Test
    void aClassOnAClassPathIsLoadedAloneAndGetsEverySetting() throws Exception {
        try (RemoteStorageManager probe = plugins.remoteStorageManager(
                new PluginSelection(
                        "com.example.gamma.ProbeStorage",
                        List.of(classPathJar),
                        Map.of("anything", "x"),
                        Map.of("broker.id", 1)),
                NO_STORES)) {
            assertInstanceOf(ClassLoaderAwareRemoteStorageManager.class, probe);
            assertEquals(
                    "create=plugin configure=plugin call=plugin config={anything=x, broker.id=1} kernel=hidden"
                            + " helper=none",
                    TestPlugins.report(probe));
        }
    }

    @Test
    void aNameAPluginAnswersToWinsOverAClassPathWhichIsNotEvenRead() throws Exception {
        Path missing = root.resolve("kafka-storage-test.jar");
        try (RemoteStorageManager plugin = plugins.remoteStorageManager(
                new PluginSelection("alpha", List.of(missing), Map.of("bucket", "b"), Map.of()), NO_STORES)) {
            assertEquals(
                    "create=plugin configure=plugin call=plugin config={bucket=b, parts=3} kernel=hidden helper=none",
                    TestPlugins.report(plugin));
        }
    }

    @Test
    void aClassPathSelectionNamesWhatIsWrong() {
        Path missing = root.resolve("missing.jar");
        assertEquals(
                "the class path of com.example.gamma.ProbeStorage names " + missing + ", which does not exist",
                assertThrows(
                                PluginLoadException.class,
                                () -> plugins.remoteStorageManager(
                                        new PluginSelection(
                                                "com.example.gamma.ProbeStorage", List.of(missing), Map.of(), Map.of()),
                                        NO_STORES))
                        .getMessage());
        assertEquals(
                "no class com.example.Absent on its class path " + classPathJar,
                assertThrows(
                                PluginLoadException.class,
                                () -> plugins.remoteStorageManager(
                                        new PluginSelection(
                                                "com.example.Absent", List.of(classPathJar), Map.of(), Map.of()),
                                        NO_STORES))
                        .getMessage());
        assertEquals(
                "com.example.gamma.ProbeProvider does not implement " + "io.krabka.spi.storage.RemoteStorageManager",
                assertThrows(
                                PluginLoadException.class,
                                () -> plugins.remoteStorageManager(
                                        new PluginSelection(
                                                "com.example.gamma.ProbeProvider",
                                                List.of(classPathJar),
                                                Map.of(),
                                                Map.of()),
                                        NO_STORES))
                        .getMessage());
    }

    @Test
    void anUnknownNameListsTheKnownOnes() {
        assertEquals(
                "no remote storage manager plugin is named 'nope', and there is no class path to load a class "
                        + "of that name from; known: alpha",
                assertThrows(
                                PluginLoadException.class,
                                () -> plugins.remoteStorageManager(
                                        new PluginSelection("nope", List.of(), Map.of(), Map.of()), NO_STORES))
                        .getMessage());
    }
}
