package io.krabka.kernel.plugin;

import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.Configurable;
import io.krabka.spi.plugin.PluginKind;
import io.krabka.spi.storage.RemoteLogMetadataManager;
import io.krabka.spi.storage.RemoteStorageManager;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The plugins discovery found, by kind and name, the folders it skipped, and the one place plugin instances are
 * created. Every instance it returns runs each call with its plugin's class loader as the thread context class
 * loader.
 */
public final class PluginRegistry {
    private final List<LoadedPlugin> plugins;
    private final List<BrokenPluginFolder> broken;
    private final PluginMetricsFactory metrics;

    PluginRegistry(List<LoadedPlugin> plugins, List<BrokenPluginFolder> broken) {
        this(
                plugins.stream()
                        .sorted(Comparator.comparing(
                                        (LoadedPlugin p) -> p.descriptor().kind())
                                .thenComparing(p -> p.descriptor().name()))
                        .toList(),
                List.copyOf(broken),
                PluginMetricsFactory.UNPUBLISHED);
    }

    private PluginRegistry(List<LoadedPlugin> plugins, List<BrokenPluginFolder> broken, PluginMetricsFactory metrics) {
        this.plugins = plugins;
        this.broken = broken;
        this.metrics = metrics;
    }

    /**
     * These plugins, their instances publishing their metrics through {@code metrics}; a registry as discovered
     * gives them {@linkplain PluginMetricsFactory#UNPUBLISHED unpublished} ones.
     */
    public PluginRegistry withMetrics(PluginMetricsFactory metrics) {
        return new PluginRegistry(plugins, broken, Objects.requireNonNull(metrics, "metrics"));
    }

    /** Where the instances created here publish their metrics. */
    PluginMetricsFactory metrics() {
        return metrics;
    }

    /** Every plugin, by kind and then name. */
    public List<PluginDescriptor> plugins() {
        return plugins.stream().map(LoadedPlugin::descriptor).toList();
    }

    /** The plugin folders that failed to load and were skipped, in folder-name order. */
    public List<BrokenPluginFolder> broken() {
        return broken;
    }

    /** The names of the plugins of one kind, in order. */
    public List<String> names(PluginKind kind) {
        return plugins.stream()
                .map(LoadedPlugin::descriptor)
                .filter(d -> d.kind() == kind)
                .map(PluginDescriptor::name)
                .toList();
    }

    /**
     * A new instance of the plugin of {@code kind} named {@code name}, configured with {@code raw} (keys relative
     * to the kind's prefix, values as text or already typed). The settings are checked before the instance is
     * created. It is a {@link RemoteStorageManager} or a {@link RemoteLogMetadataManager}, as the kind says.
     *
     * @throws PluginLoadException if no plugin of that kind has that name, or the plugin fails to create or
     *                             configure the instance
     * @throws ConfigException     if a setting is unknown, missing or invalid; the message names the key
     */
    public Configurable create(PluginKind kind, String name, Map<String, ?> raw) {
        Objects.requireNonNull(raw, "raw");
        return find(kind, name).create(raw, metrics);
    }

    /** {@link #create} for a {@link PluginKind#REMOTE_STORAGE_MANAGER}. */
    public RemoteStorageManager createRemoteStorageManager(String name, Map<String, ?> raw) {
        return (RemoteStorageManager) create(PluginKind.REMOTE_STORAGE_MANAGER, name, raw);
    }

    /** {@link #create} for a {@link PluginKind#REMOTE_LOG_METADATA_MANAGER}. */
    public RemoteLogMetadataManager createRemoteLogMetadataManager(String name, Map<String, ?> raw) {
        return (RemoteLogMetadataManager) create(PluginKind.REMOTE_LOG_METADATA_MANAGER, name, raw);
    }

    /**
     * The names of the settings the plugin of {@code kind} named {@code name} declares.
     *
     * @throws PluginLoadException if no plugin of that kind has that name
     */
    public Set<String> configKeyNames(PluginKind kind, String name) {
        return find(kind, name).descriptor().settings().stream()
                .map(ConfigKey::name)
                .collect(Collectors.toUnmodifiableSet());
    }

    /** {@link #create} for a {@link PluginKind#OBJECT_STORE}. */
    public ObjectStore createObjectStore(String name, Map<String, ?> raw) {
        return (ObjectStore) create(PluginKind.OBJECT_STORE, name, raw);
    }

    /** Whether a plugin of {@code kind} has {@code nameOrAlias} as its name or one of its aliases. */
    public boolean has(PluginKind kind, String nameOrAlias) {
        return plugins.stream()
                .anyMatch(p -> p.descriptor().kind() == kind && p.descriptor().answersTo(nameOrAlias));
    }

    /** The plugin of {@code kind} named {@code name}, or having it as an alias; as {@link #create}. */
    LoadedPlugin find(PluginKind kind, String name) {
        return plugins.stream()
                .filter(p -> p.descriptor().kind() == kind && p.descriptor().answersTo(name))
                .findFirst()
                .orElseThrow(() -> new PluginLoadException(
                        "unknown " + kind + " plugin '" + name + "'; " + whyNotFound(kind, name)));
    }

    /**
     * Why no plugin of {@code kind} answers to {@code name}, for a message: the folder of that name failed to load
     * (and why), or which plugins there are and which folders were skipped, since the plugin looked for may be in one.
     */
    String whyNotFound(PluginKind kind, String name) {
        for (BrokenPluginFolder folder : broken) {
            if (folder.folder().getFileName().toString().equals(name)) {
                return folder.reason();
            }
        }
        List<String> known = names(kind);
        return (known.isEmpty() ? "there are none" : "known: " + String.join(", ", known))
                + broken.stream().map(folder -> "; skipped: " + folder.reason()).collect(Collectors.joining());
    }
}
