package io.krabka.it;

import io.krabka.kernel.plugin.PluginDiscovery;
import io.krabka.kernel.plugin.PluginRegistry;
import io.krabka.spi.plugin.PluginProvider;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * Plugins of the built distribution (the {@code krabka.dist} system property, {@code jlink/target/dist}), found
 * by the kernel's own plugin discovery, each in the isolation it would have in the distribution.
 *
 * <p>The tests run on the class path, but a modular plugin's layer must read the SPI module: failsafe puts
 * {@code krabka-spi} on the module path ({@code --add-modules io.krabka.spi}), as the distribution does.
 */
final class DistributionPlugins {
    /** The system property naming the distribution's root. */
    static final String DIST_PROPERTY = "krabka.dist";

    private DistributionPlugins() {
    }

    /**
     * Discovers a plugins directory under {@code workDir} holding a copy of the distribution's folder of one
     * plugin and nothing else, so that a test depends on that plugin alone (another folder that discovery rejects,
     * such as a skeleton that provides nothing yet, would fail it).
     *
     * @throws IllegalStateException if there is no distribution, it has no such plugin folder, or the SPI is not
     *                               a named module
     */
    static PluginRegistry only(String folderName, Path workDir) throws IOException {
        Path folder = folder(folderName);
        if (!PluginProvider.class.getModule().isNamed()) {
            throw new IllegalStateException("the SPI is on the class path, so no modular plugin can load: run with"
                    + " --module-path <krabka-spi jar> --add-modules io.krabka.spi (krabka-it's failsafe does)");
        }
        Path copy = Files.createDirectories(workDir.resolve("plugins").resolve(folderName));
        try (Stream<Path> files = Files.list(folder)) {
            for (Path file : files.toList()) {
                Files.copy(file, copy.resolve(file.getFileName()));
            }
        }
        return PluginDiscovery.discover(copy.getParent());
    }

    /**
     * The distribution's folder of one plugin.
     *
     * @throws IllegalStateException if there is no distribution, or it has no such plugin folder
     */
    static Path folder(String folderName) {
        String dist = System.getProperty(DIST_PROPERTY);
        if (dist == null || !Files.isDirectory(Path.of(dist).resolve("plugins"))) {
            throw new IllegalStateException("no Krabka distribution at " + dist + " (system property " + DIST_PROPERTY
                    + "): build jlink first (./run-tests does)");
        }
        Path folder = Path.of(dist).resolve("plugins").resolve(folderName);
        if (!Files.isDirectory(folder)) {
            throw new IllegalStateException("the Krabka distribution at " + dist + " has no plugins/" + folderName
                    + ": rebuild jlink");
        }
        return folder;
    }
}
