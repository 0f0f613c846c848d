package io.krabka.kernel.plugin;

import io.krabka.spi.plugin.PluginKind;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Finds every plugin: the providers on the boot layer (module path or class path), then one isolated plugin
 * per folder under the plugins directory, in folder-name order. A folder that fails to load is skipped and kept
 * as a {@link BrokenPluginFolder}, so that one broken folder does not take every other plugin down with it; the
 * registry names it when the settings select a plugin it cannot find. What cannot be decided per folder stops
 * discovery with a {@link PluginLoadException}: no plugins directory, a provider on the boot layer that fails, two
 * plugins of one kind with one name.
 */
public final class PluginDiscovery {
    /** The system property naming the distribution's root, whose {@code plugins/} folder holds the plugins. */
    public static final String HOME_PROPERTY = "krabka.home";

    private PluginDiscovery() {}

    /**
     * The plugins of the distribution named by {@value #HOME_PROPERTY}.
     *
     * @throws PluginLoadException if the property is not set, or as {@link #discover(Path)}
     */
    public static PluginRegistry discover() {
        String home = System.getProperty(HOME_PROPERTY);
        if (home == null || home.isBlank()) {
            throw new PluginLoadException("the system property " + HOME_PROPERTY
                    + " is not set; it names the distribution whose plugins/ folder holds the plugins");
        }
        return discover(Path.of(home).resolve("plugins"));
    }

    /**
     * The plugins a command names, from the distribution named by {@code krabka.home}: the boot layer's and those in
     * the folders of those names, when there is one for each, so a command that needs one store does not load every
     * plugin's libraries; otherwise every folder's, as a third party's plugin may sit in a folder of another name.
     *
     * @throws PluginLoadException as {@link #discover(Path)}
     */
    public static PluginRegistry discover(Set<String> names) {
        String home = System.getProperty(HOME_PROPERTY);
        if (home == null || home.isBlank()) {
            throw new PluginLoadException("the system property " + HOME_PROPERTY
                    + " is not set; it names the distribution whose plugins/ folder holds the plugins");
        }
        Path pluginsDirectory = Path.of(home).resolve("plugins");
        List<Path> named = names.stream()
                .map(pluginsDirectory::resolve)
                .filter(Files::isDirectory)
                .toList();
        if (named.size() != names.size()) {
            return discover(pluginsDirectory);
        }
        return load(named.stream().map(Path::toAbsolutePath).toList());
    }

    /**
     * The plugins on the boot layer and in the folders of {@code pluginsDirectory}, one plugin per folder.
     *
     * @throws PluginLoadException if the directory cannot be read, a provider on the boot layer fails, or two
     *                             plugins of one kind share a name
     */
    public static PluginRegistry discover(Path pluginsDirectory) {
        if (!Files.isDirectory(pluginsDirectory)) {
            throw new PluginLoadException(
                    "the plugins directory " + pluginsDirectory + " does not exist or is not a directory");
        }
        return load(folders(pluginsDirectory));
    }

    private static PluginRegistry load(List<Path> folders) {
        List<LoadedPlugin> plugins = new ArrayList<>(bootPlugins());
        List<BrokenPluginFolder> broken = new ArrayList<>();
        for (Path folder : folders) {
            try {
                plugins.addAll(PluginFolder.load(folder));
            } catch (PluginLoadException e) {
                broken.add(new BrokenPluginFolder(folder, e.getMessage()));
            }
        }
        checkUniqueNames(plugins);
        return new PluginRegistry(plugins, broken);
    }

    private static List<LoadedPlugin> bootPlugins() {
        ClassLoader kernelLoader = PluginDiscovery.class.getClassLoader();
        return new ProviderReader(Optional.empty(), PluginIsolation.BOOT)
                .readAll(kind -> ServiceLoader.load(kind.providerType(), kernelLoader), type -> true);
    }

    private static List<Path> folders(Path pluginsDirectory) {
        try (Stream<Path> entries = Files.list(pluginsDirectory)) {
            return entries.filter(Files::isDirectory)
                    .map(Path::toAbsolutePath)
                    .sorted()
                    .toList();
        } catch (IOException e) {
            throw new PluginLoadException(
                    "cannot read the plugins directory " + pluginsDirectory + ": " + PluginLoadException.describe(e),
                    e);
        }
    }

    private static void checkUniqueNames(List<LoadedPlugin> plugins) {
        Map<PluginKind, Map<String, PluginDescriptor>> seen = new HashMap<>();
        for (LoadedPlugin plugin : plugins) {
            PluginDescriptor descriptor = plugin.descriptor();
            Map<String, PluginDescriptor> names = seen.computeIfAbsent(descriptor.kind(), kind -> new HashMap<>());
            for (String name : Stream.concat(Stream.of(descriptor.name()), descriptor.aliases().stream())
                    .toList()) {
                PluginDescriptor earlier = names.putIfAbsent(name, descriptor);
                if (earlier != null) {
                    throw new PluginLoadException("two " + descriptor.kind() + " plugins are named '" + name + "': "
                            + earlier.origin() + " and " + descriptor.origin());
                }
            }
        }
    }
}
