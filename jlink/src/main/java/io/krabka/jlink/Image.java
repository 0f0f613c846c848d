package io.krabka.jlink;

import java.nio.file.Path;
import java.util.List;

/**
 * A runtime image that was built and smoke-run.
 *
 * @param home its folder
 * @param jdkModules the JDK modules linked into {@code jdk/}
 * @param plugins the plugins under {@code plugins/}
 * @param version what {@code bin/krabka version} printed first
 */
record Image(Path home, List<String> jdkModules, List<String> plugins, String version) {

    Image {
        jdkModules = List.copyOf(jdkModules);
        plugins = List.copyOf(plugins);
    }
}
