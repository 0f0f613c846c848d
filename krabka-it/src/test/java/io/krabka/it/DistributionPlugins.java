package io.krabka.it;

import io.krabka.kernel.plugin.PluginDiscovery;
import io.krabka.kernel.plugin.PluginRegistry;
import io.krabka.spi.plugin.PluginProvider;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The plugins of the built distribution (the {@code krabka.dist} system property, {@code jlink/target/dist}),
 * found by the kernel's own plugin discovery, each in the isolation it has in the distribution.
 *
 * <p>The tests run on the class path, but a modular plugin's layer must read the SPI module: failsafe puts
 * {@code krabka-spi} on the module path ({@code --add-modules io.krabka.spi}), as the distribution does.
 */
final class DistributionPlugins {
    /** The system property naming the distribution's root. */
    static final String DIST_PROPERTY = "krabka.dist";

    private DistributionPlugins() {}

    /**
     * Discovers every plugin of the distribution.
     *
     * @throws IllegalStateException if there is no distribution, or the SPI is not a named module
     */
    static PluginRegistry discover() {
        String dist = System.getProperty(DIST_PROPERTY);
        if (dist == null || !Files.isDirectory(Path.of(dist).resolve("plugins"))) {
            throw new IllegalStateException("no Krabka distribution at " + dist + " (system property " + DIST_PROPERTY
                    + "): build jlink first (./run-tests does)");
        }
        if (!PluginProvider.class.getModule().isNamed()) {
            throw new IllegalStateException("the SPI is on the class path, so no modular plugin can load: run with"
                    + " --module-path <krabka-spi jar> --add-modules io.krabka.spi (krabka-it's failsafe does)");
        }
        return PluginDiscovery.discover(Path.of(dist).resolve("plugins"));
    }
}
