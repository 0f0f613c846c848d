package io.krabka.kernel.plugin;

import io.krabka.spi.plugin.PluginKind;
import io.krabka.spi.plugin.PluginProvider;
import java.io.IOException;
import java.lang.module.Configuration;
import java.lang.module.FindException;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.lang.module.ResolutionException;
import java.lang.module.ResolvedModule;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * One folder under {@code plugins/}: one plugin, loaded in isolation. When a jar in it is an explicit module
 * that {@code provides} a Krabka provider type, the folder's jars become a child {@link ModuleLayer};
 * otherwise they go into a {@link PluginClassLoader} and providers are found through {@code META-INF/services}
 * (some libraries, such as the GCS client, split packages across jars and cannot resolve as modules).
 *
 * <p>The layer's parent is the SPI's layer (the boot layer). JPMS makes an automatic module read every module of
 * its parent layers too, so a folder holding an automatic module cannot also bundle its own copy of a module the
 * boot layer has: resolution fails with "reads more than one module named ...".
 */
final class PluginFolder {
    private static final Set<String> PROVIDER_TYPES = Arrays.stream(PluginKind.values())
            .map(kind -> kind.providerType().getName())
            .collect(Collectors.toUnmodifiableSet());
    private static final String SPI_MODULE = PluginProvider.class.getModule().getName();

    private final Path folder;
    private final List<Path> jars;

    private PluginFolder(Path folder, List<Path> jars) {
        this.folder = folder;
        this.jars = jars;
    }

    /** Every plugin the folder provides: at least one. */
    static List<LoadedPlugin> load(Path folder) {
        List<Path> jars;
        try (Stream<Path> files = Files.list(folder)) {
            jars = files.filter(f -> f.getFileName().toString().endsWith(".jar") && Files.isRegularFile(f))
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new PluginLoadException(
                    "cannot read plugin folder " + folder + ": " + PluginLoadException.describe(e), e);
        }
        if (jars.isEmpty()) {
            throw new PluginLoadException("plugin folder " + folder + " has no plugin provider: it holds no jar");
        }
        PluginFolder plugin = new PluginFolder(folder, jars);
        List<LoadedPlugin> plugins =
                plugin.providesAsModule() ? plugin.loadAsModuleLayer() : plugin.loadWithClassLoader();
        if (plugins.isEmpty()) {
            throw new PluginLoadException("plugin folder " + folder + " has no plugin provider: no jar declares one"
                    + " (provides in module-info, or META-INF/services)");
        }
        return plugins;
    }

    /** Whether a jar is an explicit module providing a Krabka provider type: the rule that picks a module layer. */
    private boolean providesAsModule() {
        return jars.stream()
                .flatMap(PluginFolder::explicitModules)
                .anyMatch(d -> d.provides().stream().anyMatch(p -> PROVIDER_TYPES.contains(p.service())));
    }

    private static Stream<ModuleDescriptor> explicitModules(Path jar) {
        try {
            return ModuleFinder.of(jar).findAll().stream()
                    .map(ModuleReference::descriptor)
                    .filter(d -> !d.isAutomatic());
        } catch (FindException e) {
            return Stream.empty(); // not a module at all (no derivable name): the class loader will read it
        }
    }

    private List<LoadedPlugin> loadAsModuleLayer() {
        ModuleLayer parent =
                Optional.ofNullable(PluginProvider.class.getModule().getLayer()).orElse(ModuleLayer.boot());
        Configuration configuration;
        try {
            ModuleFinder finder = ModuleFinder.of(jars.toArray(Path[]::new));
            Set<String> roots =
                    finder.findAll().stream().map(m -> m.descriptor().name()).collect(Collectors.toSet());
            configuration = parent.configuration().resolveAndBind(finder, ModuleFinder.of(), roots);
        } catch (FindException | ResolutionException e) {
            throw new PluginLoadException(
                    "plugin folder " + folder + " does not resolve as modules: " + e.getMessage(), e);
        }
        checkRequires(configuration);
        ModuleLayer layer;
        try {
            layer = parent.defineModulesWithOneLoader(configuration, JdkOnlyClassLoader.INSTANCE);
        } catch (LayerInstantiationException e) {
            throw new PluginLoadException(
                    "plugin folder " + folder + " cannot be loaded as modules: " + e.getMessage(), e);
        }
        return new ProviderReader(Optional.of(folder), PluginIsolation.MODULE_LAYER)
                .readAll(
                        kind -> ServiceLoader.load(layer, kind.providerType()),
                        type -> type.getModule().getLayer() == layer);
    }

    /**
     * An explicit module in the folder may require only the SPI, JDK modules and the folder's own modules: never
     * the kernel, the launcher or their libraries, whose versions are not the plugin's to choose. Automatic
     * modules are exempt because JPMS makes them read every module; the kernel exports its packages to the
     * launcher alone, so they can still not use it.
     */
    private void checkRequires(Configuration configuration) {
        for (ResolvedModule module : configuration.modules()) {
            ModuleDescriptor descriptor = module.reference().descriptor();
            if (descriptor.isAutomatic()) {
                continue;
            }
            for (ModuleDescriptor.Requires requires : descriptor.requires()) {
                String name = requires.name();
                boolean outside = configuration
                        .findModule(name)
                        .map(m -> m.configuration() != configuration)
                        .orElse(false);
                if (outside && !name.equals(SPI_MODULE) && !JdkOnlyClassLoader.isJdkModule(name)) {
                    throw new PluginLoadException("plugin module " + module.name() + " (" + folder + ") requires "
                            + name + " from outside its folder; a plugin may require only " + SPI_MODULE
                            + ", JDK modules and the modules in its folder");
                }
            }
        }
    }

    private List<LoadedPlugin> loadWithClassLoader() {
        URL[] urls = new URL[jars.size()];
        for (int i = 0; i < urls.length; i++) {
            try {
                urls[i] = jars.get(i).toUri().toURL();
            } catch (MalformedURLException e) {
                throw new PluginLoadException("plugin jar " + jars.get(i) + " has no URL: " + e.getMessage(), e);
            }
        }
        PluginClassLoader loader =
                new PluginClassLoader("plugin " + folder.getFileName(), urls, PluginProvider.class.getClassLoader());
        return new ProviderReader(Optional.of(folder), PluginIsolation.CLASS_LOADER)
                .readAll(
                        kind -> ServiceLoader.load(kind.providerType(), loader),
                        type -> type.getClassLoader() == loader);
    }
}
