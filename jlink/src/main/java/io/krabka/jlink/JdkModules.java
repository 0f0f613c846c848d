package io.krabka.jlink;

import java.io.File;
import java.lang.module.FindException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The JDK modules an image must link so that the kernel's module path, and every chosen plugin's layer on top
 * of it, resolve and run. A plugin layer can only read system modules the image holds, so each plugin counts.
 *
 * <p>Two sources, since each misses what the other sees: jdeps finds the modules the classes use (the only
 * source for automatic modules, which declare nothing), and the module descriptors' non-static
 * {@code requires} name the modules resolution demands even where jdeps sees no use (jackson-databind requires
 * java.logging, which jdeps does not report).
 */
final class JdkModules {
    private static final String PROVIDER_PACKAGE = "io.krabka.spi.plugin.";

    private final Tool jdeps;
    private final ModuleFinder system = ModuleFinder.ofSystem();

    JdkModules(Tool jdeps) {
        this.jdeps = jdeps;
    }

    /**
     * The JDK modules the folders of the kernel's module path ({@code boot/} and {@code lib/}) and the plugin
     * folders need, sorted.
     */
    SortedSet<String> required(List<Path> modulePath, List<Path> pluginFolders) {
        SortedSet<String> modules = new TreeSet<>();
        for (Path folder : concat(modulePath, pluginFolders)) {
            List<Path> jars = Distribution.jars(folder);
            // A plugin folder that the kernel loads as a module layer resolves its modules together: jdeps must see
            // them on the module path too, or a plugin module's requires of a library beside it is not found. A
            // class-loader folder must stay off it: its jars need not resolve as modules (the GCS client's do not).
            boolean plugin = pluginFolders.contains(folder);
            boolean classLoader = plugin && !isModuleLayer(jars);
            List<Path> path = plugin && !classLoader ? concat(modulePath, List.of(folder)) : modulePath;
            String joined = String.join(
                    File.pathSeparator, path.stream().map(Path::toString).toList());
            // A folder on the module path one jar at a time: given several explicit modules at once, jdeps also counts
            // what they require only static (java.desktop for jackson-databind's optional java.beans support, jdk.jfr
            // for Netty's events), 16 MB of a minimal image that nothing runs. A class-loader folder's jars need not
            // resolve as modules, so they are read together, as the class loader sees them.
            for (List<Path> read :
                    classLoader ? List.of(jars) : jars.stream().map(List::of).toList()) {
                modules.addAll(used(joined, read));
            }
            jars.forEach(jar -> modules.addAll(declared(jar)));
        }
        return modules;
    }

    /**
     * The kernel's rule for a plugin folder's isolation: a module layer when one of its jars is an explicit module
     * that provides a Krabka plugin provider (a type of {@value #PROVIDER_PACKAGE}).
     */
    private static boolean isModuleLayer(List<Path> jars) {
        return jars.stream()
                .map(JdkModules::descriptor)
                .flatMap(Optional::stream)
                .anyMatch(d -> !d.isAutomatic()
                        && d.provides().stream().anyMatch(p -> p.service().startsWith(PROVIDER_PACKAGE)));
    }

    private static Optional<ModuleDescriptor> descriptor(Path jar) {
        try {
            return ModuleFinder.of(jar).findAll().stream().findFirst().map(ModuleReference::descriptor);
        } catch (FindException e) {
            return Optional.empty();
        }
    }

    /** The system modules jdeps finds the classes use; the kernel's module path resolves what a plugin requires of it. */
    private Set<String> used(String modulePath, List<Path> jars) {
        List<String> args = new ArrayList<>(List.of(
                "--print-module-deps",
                "--ignore-missing-deps",
                "--multi-release",
                String.valueOf(Runtime.version().feature()),
                "--module-path",
                modulePath));
        jars.forEach(jar -> args.add(jar.toString()));
        String printed = jdeps.run(args).strip();
        // The answer is the last line (java.base,java.logging,...), warnings may come before it; jars without
        // classes (a module-info alone) give none. It also names the modules of lib/ the jars use: those are
        // installed as jars, not linked.
        String answer = printed.substring(printed.lastIndexOf('\n') + 1);
        Set<String> modules = new TreeSet<>();
        for (String module : answer.isEmpty() ? new String[0] : answer.split(",")) {
            if (system.find(module).isPresent()) {
                modules.add(module);
            }
        }
        return modules;
    }

    /** The system modules a jar's descriptor requires at run time. */
    private Set<String> declared(Path jar) {
        Set<ModuleDescriptor.Requires> requires;
        try {
            requires = ModuleFinder.of(jar).findAll().stream()
                    .findFirst()
                    .map(m -> m.descriptor().requires())
                    .orElse(Set.of());
        } catch (FindException e) {
            // Not usable as a module (a class-path plugin's jar): it declares nothing, and jdeps read its classes.
            return Set.of();
        }
        Set<String> modules = new TreeSet<>();
        for (ModuleDescriptor.Requires require : requires) {
            if (!require.modifiers().contains(ModuleDescriptor.Requires.Modifier.STATIC)
                    && system.find(require.name()).isPresent()) {
                modules.add(require.name());
            }
        }
        return modules;
    }

    private static List<Path> concat(List<Path> first, List<Path> rest) {
        List<Path> all = new ArrayList<>(first);
        all.addAll(rest);
        return all;
    }
}
