package io.krabka.jlink;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * A laid-out distribution, as the jlink module's package phase writes it: {@code boot/} is the boot module path
 * (the SPI and the module that starts the kernel), {@code lib/} the kernel's layer, {@code plugins/<name>/} holds
 * each plugin's jars.
 *
 * @param home the distribution's folder
 */
record Distribution(Path home) {

    Distribution {
        home = home.toAbsolutePath().normalize();
        for (String folder : List.of("boot", "lib")) {
            if (!Files.isDirectory(home.resolve(folder))) {
                throw new ImageException(
                        "not a Krabka distribution: " + home + " has no " + folder + "/ (./krabka builds one)");
            }
        }
    }

    /** The start script, {@code bin/krabka}, which images take over as it is. */
    Path startScript() {
        return home.resolve("bin").resolve("krabka");
    }

    Path boot() {
        return home.resolve("boot");
    }

    Path lib() {
        return home.resolve("lib");
    }

    Path plugin(String name) {
        return home.resolve("plugins").resolve(name);
    }

    /** The names of the plugins the distribution holds, sorted. */
    List<String> plugins() {
        Path plugins = home.resolve("plugins");
        if (!Files.isDirectory(plugins)) {
            return List.of();
        }
        try (Stream<Path> folders = Files.list(plugins)) {
            return folders.filter(Files::isDirectory)
                    .map(f -> f.getFileName().toString())
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new ImageException("cannot list the plugins in " + plugins + ": " + e, e);
        }
    }

    /** The plugins a profile chooses; a name the distribution does not hold is an error that lists those it does. */
    List<String> select(Profile profile) {
        List<String> available = plugins();
        if (profile.everyPlugin()) {
            return available;
        }
        List<String> unknown =
                profile.plugins().stream().filter(p -> !available.contains(p)).toList();
        if (!unknown.isEmpty()) {
            throw new ImageException("unknown plugin" + (unknown.size() == 1 ? " " : "s ") + String.join(", ", unknown)
                    + " in profile " + profile.name() + "; plugins available: " + String.join(", ", available));
        }
        return profile.plugins();
    }

    /** The jars in a folder of the distribution, sorted; a folder without any is an error. */
    static List<Path> jars(Path folder) {
        try (Stream<Path> files = Files.list(folder)) {
            List<Path> jars = files.filter(f -> f.getFileName().toString().endsWith(".jar") && Files.isRegularFile(f))
                    .sorted()
                    .toList();
            if (jars.isEmpty()) {
                throw new ImageException(folder + " holds no jars");
            }
            return jars;
        } catch (IOException e) {
            throw new ImageException("cannot list " + folder + ": " + e, e);
        }
    }
}
