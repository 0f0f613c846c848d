package io.krabka.kernel.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.PluginKind;
import io.krabka.spi.plugin.RemoteStorageManagerProvider;
import io.krabka.spi.plugin.SpiVersion;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class PluginDiscoveryTest {
    @TempDir
    Path root;

    private TestPlugins plugins;

    @BeforeEach
    void setUp() {
        plugins = new TestPlugins(root);
    }

    private PluginRegistry discover() {
        return PluginDiscovery.discover(plugins.pluginsDirectory());
    }

    /** Why the one folder discovery skipped failed to load. */
    private String discoveryError() {
        PluginRegistry registry = discover();
        assertEquals(List.of(), registry.plugins());
        assertEquals(1, registry.broken().size(), registry.broken().toString());
        return registry.broken().getFirst().reason();
    }

    @Test
    void aModularPluginLoadsInItsOwnModuleLayer() {
        plugins.probe("alpha").modular();

        PluginDescriptor alpha = discover().plugins().getFirst();
        assertEquals(
                new PluginDescriptor(
                        "alpha",
                        PluginKind.REMOTE_STORAGE_MANAGER,
                        "1.2.3",
                        SpiVersion.CURRENT,
                        "com.example.alpha",
                        Optional.of(plugins.folder("alpha")),
                        PluginIsolation.MODULE_LAYER,
                        List.of(),
                        "Reports what plugin code sees.",
                        alpha.settings()),
                alpha);
        assertEquals(
                List.of("bucket", "parts"),
                alpha.settings().stream().map(ConfigKey::name).toList());
    }

    @Test
    void aPlainJarPluginLoadsThroughItsServiceFileInAnIsolatedClassLoader() {
        plugins.probe("beta").plain();

        PluginDescriptor beta = discover().plugins().getFirst();
        assertEquals(
                new PluginDescriptor(
                        "beta",
                        PluginKind.REMOTE_STORAGE_MANAGER,
                        "2.3.4",
                        SpiVersion.CURRENT,
                        "beta.jar",
                        Optional.of(plugins.folder("beta")),
                        PluginIsolation.CLASS_LOADER,
                        List.of(),
                        "Reports what plugin code sees.",
                        beta.settings()),
                beta);
    }

    @Test
    void pluginsAreListedByKindThenNameAndOneNameMayServeTwoKinds() {
        plugins.probe("zeta").plain();
        plugins.probe("ledger").inFolder("a-ledger-storage").modular();
        plugins.ledger("ledger");

        PluginRegistry registry = discover();

        assertEquals(
                List.of(
                        "ledger:REMOTE_STORAGE_MANAGER",
                        "zeta:REMOTE_STORAGE_MANAGER",
                        "ledger:REMOTE_LOG_METADATA_MANAGER"),
                registry.plugins().stream().map(p -> p.name() + ":" + p.kind()).toList());
        assertEquals(List.of("ledger", "zeta"), registry.names(PluginKind.REMOTE_STORAGE_MANAGER));
        assertEquals(List.of("ledger"), registry.names(PluginKind.REMOTE_LOG_METADATA_MANAGER));
    }

    @Test
    void aModularPluginBundlingALibraryModuleInASecondJarLoads() {
        plugins.probe("gamma").withHelper("1").modular();

        assertEquals(List.of("gamma"), discover().names(PluginKind.REMOTE_STORAGE_MANAGER));
    }

    @Test
    void anEmptyFolderIsAnError() {
        Path empty = plugins.emptyFolder("empty");

        assertEquals("plugin folder " + empty + " has no plugin provider: it holds no jar", discoveryError());
    }

    @Test
    void aFolderWhoseJarsDeclareNoProviderIsAnError() {
        plugins.jar()
                .source("module-info", "module com.example.skeleton { requires io.krabka.spi; }")
                .writeTo(plugins.folder("skeleton").resolve("skeleton.jar"));

        assertEquals(
                "plugin folder " + plugins.folder("skeleton") + " has no plugin provider: no jar declares one"
                        + " (provides in module-info, or META-INF/services)",
                discoveryError());
    }

    @Test
    void aPlainProviderThatThrowsOnLoadNamesItsJarAndTheCause() {
        plugins.probe("boom").throwing("no licence for this host").plain();

        assertEquals(
                "plugin provider com.example.boom.ProbeProvider in boom.jar (" + plugins.folder("boom")
                        + ") failed to load: java.lang.IllegalStateException: no licence for this host",
                discoveryError());
    }

    @Test
    void aModularProviderThatThrowsOnLoadNamesItsJarAndTheCause() {
        plugins.probe("bang").throwing("disk on fire").modular();

        assertEquals(
                "plugin provider com.example.bang.ProbeProvider in bang.jar (" + plugins.folder("bang")
                        + ") failed to load: java.lang.IllegalStateException: disk on fire",
                discoveryError());
    }

    @Test
    void aServiceFileNamingAMissingClassIsAnErrorNamingTheFolder() {
        plugins.jar()
                .source("com.example.stray.Stray", "package com.example.stray; public final class Stray { }")
                .service(RemoteStorageManagerProvider.class, "com.example.stray.Gone")
                .writeTo(plugins.folder("stray").resolve("stray.jar"));

        assertEquals(
                "plugin folder " + plugins.folder("stray") + ": cannot list its REMOTE_STORAGE_MANAGER providers:"
                        + " java.util.ServiceConfigurationError: io.krabka.spi.plugin.RemoteStorageManagerProvider: Provider"
                        + " com.example.stray.Gone not found",
                discoveryError());
    }

    @Test
    void twoPluginsOfOneKindWithOneNameAreAnErrorNamingBoth() {
        plugins.probe("twin").inFolder("a").modular();
        plugins.probe("twin").inFolder("b").plain();

        assertEquals(
                "two REMOTE_STORAGE_MANAGER plugins are named 'twin': com.example.twin (" + plugins.folder("a")
                        + ") and twin.jar (" + plugins.folder("b") + ")",
                assertThrows(PluginLoadException.class, this::discover).getMessage());
    }

    @ParameterizedTest
    @ValueSource(strings = {"2.0", "0.9", "1.4"})
    void aPluginBuiltAgainstAnIncompatibleSpiIsRejected(String spiVersion) {
        plugins.probe("future").builtAgainst(spiVersion).plain();

        assertEquals(
                "plugin 'future' 2.3.4 of future.jar (" + plugins.folder("future") + ") was built against SPI "
                        + spiVersion
                        + "; this Krabka's SPI " + SpiVersion.CURRENT + " loads only plugins built against SPI "
                        + SpiVersion.CURRENT + " or an older 1.x",
                discoveryError());
    }

    @Test
    void anSpiVersionThatIsNotMajorDotMinorIsRejected() {
        plugins.probe("odd").builtAgainst("one").modular();

        assertEquals(
                "plugin 'odd' 1.2.3 of com.example.odd (" + plugins.folder("odd")
                        + ") states SPI version 'one', which is not major.minor",
                discoveryError());
    }

    @Test
    void aNameThatBreaksTheNamingRuleIsRejected() {
        plugins.probe("Bad_Name").plain();

        assertEquals(
                "plugin name 'Bad_Name' of Bad_Name.jar (" + plugins.folder("Bad_Name") + ") breaks the naming"
                        + " rule: lower case letters, digits and dashes, not starting with a dash",
                discoveryError());
    }

    @Test
    void aModularPluginMayNotReadTheKernel() {
        plugins.probe("sneaky").requiringKernel().modular();

        assertEquals(
                "plugin module com.example.sneaky (" + plugins.folder("sneaky") + ") requires io.krabka.kernel"
                        + " from outside its folder; a plugin may require only io.krabka.spi, JDK modules and the modules in"
                        + " its folder",
                discoveryError());
    }

    @Test
    void aModularPluginMissingALibraryItRequiresDoesNotResolve() throws IOException {
        plugins.probe("gamma").withHelper("1").modular();
        Files.delete(plugins.folder("gamma").resolve("helper.jar"));

        assertEquals(
                "plugin folder " + plugins.folder("gamma") + " does not resolve as modules: Module"
                        + " com.example.helper not found, required by com.example.gamma",
                discoveryError());
    }

    @Test
    void aBrokenFolderIsSkippedAndStopsOnlyWhatSelectsIt() {
        plugins.probe("alpha").modular();
        Path empty = plugins.emptyFolder("empty");
        plugins.probe("boom").throwing("no licence for this host").plain();

        PluginRegistry registry = discover();

        assertEquals(List.of("alpha"), registry.names(PluginKind.REMOTE_STORAGE_MANAGER));
        assertEquals(
                List.of(plugins.folder("boom"), empty),
                registry.broken().stream()
                        .map(BrokenPluginFolder::folder)
                        .sorted()
                        .toList());
        String emptyReason = "plugin folder " + empty + " has no plugin provider: it holds no jar";
        String boomReason = "plugin provider com.example.boom.ProbeProvider in boom.jar (" + plugins.folder("boom")
                + ") failed to load: java.lang.IllegalStateException: no licence for this host";
        assertEquals(
                "unknown REMOTE_STORAGE_MANAGER plugin 'boom'; " + boomReason,
                assertThrows(
                                PluginLoadException.class,
                                () -> registry.create(PluginKind.REMOTE_STORAGE_MANAGER, "boom", Map.of()))
                        .getMessage());
        assertEquals(
                "unknown REMOTE_STORAGE_MANAGER plugin 'nope'; known: alpha; skipped: " + boomReason + "; skipped: "
                        + emptyReason,
                assertThrows(
                                PluginLoadException.class,
                                () -> registry.create(PluginKind.REMOTE_STORAGE_MANAGER, "nope", Map.of()))
                        .getMessage());
    }

    @Test
    void aMissingPluginsDirectoryIsAnError() {
        Path missing = root.resolve("nowhere");

        PluginLoadException e = assertThrows(PluginLoadException.class, () -> PluginDiscovery.discover(missing));

        assertEquals("the plugins directory " + missing + " does not exist or is not a directory", e.getMessage());
    }

    @Test
    void theDistributionIsFoundThroughKrabkaHome() {
        plugins.probe("alpha").modular();
        String before = System.getProperty(PluginDiscovery.HOME_PROPERTY);
        try {
            System.setProperty(PluginDiscovery.HOME_PROPERTY, root.toString());
            assertEquals(List.of("alpha"), PluginDiscovery.discover().names(PluginKind.REMOTE_STORAGE_MANAGER));

            System.clearProperty(PluginDiscovery.HOME_PROPERTY);
            assertEquals(
                    "the system property krabka.home is not set; it names the distribution whose plugins/"
                            + " folder holds the plugins",
                    assertThrows(PluginLoadException.class, PluginDiscovery::discover)
                            .getMessage());
        } finally {
            if (before == null) {
                System.clearProperty(PluginDiscovery.HOME_PROPERTY);
            } else {
                System.setProperty(PluginDiscovery.HOME_PROPERTY, before);
            }
        }
    }
}
