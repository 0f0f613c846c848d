package io.krabka.kernel.tiered;

import io.krabka.kernel.plugin.PluginDiscovery;
import io.krabka.kernel.plugin.PluginRegistry;
import java.nio.file.Path;

/**
 * The real {@code local} and {@code inmemory} plugins, unpacked by the build into {@code target/test-plugins} and
 * found by the kernel's discovery, each in the isolation it has in the distribution.
 */
final class TieredPlugins {
    static final PluginRegistry REGISTRY = PluginDiscovery.discover(Path.of("target/test-plugins"));

    private TieredPlugins() {}
}
