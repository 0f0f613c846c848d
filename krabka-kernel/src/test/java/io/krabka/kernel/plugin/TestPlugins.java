package io.krabka.kernel.plugin;

import io.krabka.spi.common.TopicIdPartition;
import io.krabka.spi.common.Uuid;
import io.krabka.spi.plugin.RemoteLogMetadataManagerProvider;
import io.krabka.spi.plugin.RemoteStorageManagerProvider;
import io.krabka.spi.storage.IndexType;
import io.krabka.spi.storage.RemoteLogSegmentId;
import io.krabka.spi.storage.RemoteLogSegmentMetadata;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.spi.storage.RemoteStorageManager;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Plugin folders made of real jars, compiled while the test runs, under one root: {@code plugins/} (what
 * discovery reads) and {@code build/} (sources and classes). The plugins are probes: a storage manager whose
 * {@code fetchIndex} reports what the plugin's code saw (the context class loader at create, configure and
 * call time, its settings, whether kernel classes are visible, the version of a bundled helper library).
 */
final class TestPlugins {
    private final Path pluginsDirectory;
    private final Path buildDirectory;

    TestPlugins(Path root) {
        this.pluginsDirectory = root.resolve("plugins");
        this.buildDirectory = root.resolve("build");
        try {
            Files.createDirectories(pluginsDirectory);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    Path pluginsDirectory() {
        return pluginsDirectory;
    }

    /** The absolute path of a plugin folder, as discovery reports it. */
    Path folder(String name) {
        return pluginsDirectory.resolve(name).toAbsolutePath();
    }

    /** An empty plugin folder. */
    Path emptyFolder(String name) {
        try {
            return Files.createDirectories(folder(name));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** What a probe's code saw, from its {@code fetchIndex}. */
    static String report(RemoteStorageManager probe) throws RemoteStorageException, IOException {
        TopicIdPartition partition = new TopicIdPartition(Uuid.randomUuid(), "orders", 0);
        RemoteLogSegmentMetadata segment = new RemoteLogSegmentMetadata(
                RemoteLogSegmentId.generateNew(partition), 0, 99, 0, 1, 0, 4096, new TreeMap<>(Map.of(0, 0L)), true);
        try (InputStream in = probe.fetchIndex(segment, IndexType.OFFSET)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** How a probe was handed its metrics: {@code metrics=after-configure}, as the SPI promises, or {@code never}. */
    static String metricsReport(RemoteStorageManager probe) throws RemoteStorageException, IOException {
        TopicIdPartition partition = new TopicIdPartition(Uuid.randomUuid(), "orders", 0);
        RemoteLogSegmentMetadata segment = new RemoteLogSegmentMetadata(
                RemoteLogSegmentId.generateNew(partition), 0, 99, 0, 1, 0, 4096, new TreeMap<>(Map.of(0, 0L)), true);
        try (InputStream in = probe.fetchIndex(segment, IndexType.TRANSACTION)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    /** A new jar to build. */
    TestJar jar() {
        return new TestJar(buildDirectory);
    }

    /** A probe storage-manager plugin named {@code name}, in a folder of the same name unless told otherwise. */
    Probe probe(String name) {
        return new Probe(name);
    }

    /** A metadata-manager plugin, not modular, whose {@code isReady} says whether its loader is the context loader. */
    Path ledger(String folder) {
        String pkg = "com.example.ledger";
        return jar().source(pkg + ".LedgerProvider", PluginSources.LEDGER_PROVIDER.formatted(pkg))
                .source(pkg + ".Ledger", PluginSources.LEDGER.formatted(pkg))
                .service(RemoteLogMetadataManagerProvider.class, pkg + ".LedgerProvider")
                .writeTo(folder(folder).resolve("ledger.jar"));
    }

    /** The helper library a probe may bundle: {@code com.example.helper.Greeting.version()} answers {@code version}. */
    private Path helper(Path target, String version) {
        return jar().source("com.example.helper.Greeting", PluginSources.HELPER.formatted(version))
                .manifest("Automatic-Module-Name", "com.example.helper")
                .writeTo(target);
    }

    /** A probe plugin to write, modular or not. */
    final class Probe {
        private final String name;
        private final String pkg;
        private String folder;
        private String spiVersion = "SpiVersion.CURRENT";
        private String constructorBody = "";
        private String createBody = "return new ProbeStorage();";
        private String helperVersion;
        private boolean requiresKernel;

        private Probe(String name) {
            this.name = name;
            this.folder = name;
            this.pkg = "com.example." + name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9]", "");
        }

        /** Put it in this folder. */
        Probe inFolder(String newFolder) {
            folder = newFolder;
            return this;
        }

        /** State this SPI version instead of the current one. */
        Probe builtAgainst(String version) {
            spiVersion = '"' + version + '"';
            return this;
        }

        /** A provider whose constructor throws {@code IllegalStateException(message)}. */
        Probe throwing(String message) {
            constructorBody = "throw new IllegalStateException(\"" + message + "\");";
            return this;
        }

        /** A provider whose {@code create()} throws {@code IllegalStateException(message)}. */
        Probe failingToCreate(String message) {
            createBody = "throw new IllegalStateException(\"" + message + "\");";
            return this;
        }

        /** Bundle {@code helper.jar} of this version and report it. */
        Probe withHelper(String version) {
            helperVersion = version;
            return this;
        }

        /** A module that requires {@code io.krabka.kernel}. */
        Probe requiringKernel() {
            requiresKernel = true;
            return this;
        }

        /** Writes it as an explicit module {@code provides}-ing its provider, version 1.2.3. */
        Path modular() {
            StringBuilder requires = new StringBuilder();
            TestJar jar = sources().moduleVersion("1.2.3");
            if (helperVersion != null) {
                requires.append("requires com.example.helper; ");
                jar.compileAgainst(helper(folder(folder).resolve("helper.jar"), helperVersion));
            }
            if (requiresKernel) {
                requires.append("requires io.krabka.kernel; ");
                jar.compileAgainst(TestJar.locationOf(PluginRegistry.class));
            }
            return jar.source("module-info", PluginSources.MODULE_INFO.formatted(pkg, requires))
                    .writeTo(folder(folder).resolve(name + ".jar"));
        }

        /** Writes it as a plain jar declaring its provider in {@code META-INF/services}, version 2.3.4. */
        Path plain() {
            TestJar jar = sources()
                    .manifest("Implementation-Version", "2.3.4")
                    .service(RemoteStorageManagerProvider.class, pkg + ".ProbeProvider");
            if (helperVersion != null) {
                jar.compileAgainst(helper(folder(folder).resolve("helper.jar"), helperVersion));
            }
            return jar.writeTo(folder(folder).resolve(name + ".jar"));
        }

        private TestJar sources() {
            String helperCall = helperVersion == null ? "\"none\"" : "com.example.helper.Greeting.version()";
            return jar().source(
                            pkg + ".ProbeProvider",
                            PluginSources.PROBE_PROVIDER.formatted(pkg, name, spiVersion, constructorBody, createBody))
                    .source(pkg + ".ProbeStorage", PluginSources.PROBE_STORAGE.formatted(pkg, helperCall));
        }
    }
}
