package io.krabka.kernel.plugin;

import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.plugin.Configurable;
import io.krabka.spi.plugin.Monitorable;
import io.krabka.spi.plugin.ObjectStoreRemoteStorageManagerProvider;
import io.krabka.spi.plugin.PluginKind;
import io.krabka.spi.plugin.PluginMetrics;
import io.krabka.spi.storage.RemoteLogMetadataManager;
import io.krabka.spi.storage.RemoteStorageContext;
import io.krabka.spi.storage.RemoteStorageException;
import io.krabka.spi.storage.RemoteStorageManager;
import java.io.Closeable;
import java.net.MalformedURLException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Creates the broker's {@link RemoteStorageManager} and {@link RemoteLogMetadataManager} from a
 * {@link PluginSelection}: a discovered plugin by its name, or (Kafka's {@code class.path}) a class loaded from the
 * given jars in a class loader that sees only the JDK and the SPI, configured with every setting.
 */
public final class RemoteStoragePlugins {
    private static final System.Logger LOG = System.getLogger(RemoteStoragePlugins.class.getName());

    private final PluginRegistry registry;

    /** Selects among the plugins {@code registry} discovered. */
    public RemoteStoragePlugins(PluginRegistry registry) {
        this.registry = registry;
    }

    /**
     * The remote storage manager selected, configured.
     *
     * @throws PluginLoadException                       if it cannot be found, created or configured
     * @throws io.krabka.spi.plugin.ConfigException if a setting is unknown, missing or invalid
     */
    public RemoteStorageManager remoteStorageManager(PluginSelection selection, Contexts contexts) {
        if (byPlugin(PluginKind.REMOTE_STORAGE_MANAGER, selection)) {
            Map<String, ?> settings = withOffered(PluginKind.REMOTE_STORAGE_MANAGER, selection);
            LoadedPlugin plugin = registry.find(PluginKind.REMOTE_STORAGE_MANAGER, selection.nameOrClass());
            if (plugin.provider() instanceof ObjectStoreRemoteStorageManagerProvider) {
                return overStore(plugin, settings, selection, contexts);
            }
            return (RemoteStorageManager) plugin.create(settings, registry.metrics());
        }
        ClassLoader loader = classPathLoader(selection);
        PluginMetrics metrics = registry.metrics().create(PluginKind.REMOTE_STORAGE_MANAGER, selection.nameOrClass());
        RemoteStorageManager instance = instantiate(selection, loader, RemoteStorageManager.class, metrics);
        return ClassLoaderAwareRemoteStorageManager.of(instance, loader, Owned.NOTHING.andMetrics(metrics));
    }

    /** Makes what the kernel hands a store-backed remote storage manager, around the store it opened. */
    @FunctionalInterface
    public interface Contexts {
        /**
         * The context of the manager named {@code managerName} over {@code store}, of the plugin {@code storeName},
         * with the manager's own {@code metrics}.
         */
        RemoteStorageContext create(String managerName, ObjectStore store, String storeName, PluginMetrics metrics);
    }

    /**
     * A store-backed manager: the store its {@code store} setting names, configured with the {@code store.}
     * settings (and what the broker offers), checked, then the manager over it with the rest.
     */
    private RemoteStorageManager overStore(
            LoadedPlugin plugin, Map<String, ?> settings, PluginSelection selection, Contexts contexts) {
        String managerName = selection.nameOrClass();
        Object storeName = settings.get(ObjectStoreRemoteStorageManagerProvider.STORE_CONFIG);
        if (storeName == null || storeName.toString().isBlank()) {
            List<String> known = registry.names(PluginKind.OBJECT_STORE);
            throw new ConfigException("missing required setting " + ObjectStoreRemoteStorageManagerProvider.STORE_CONFIG
                    + ": the object store the " + managerName + " remote storage manager works over ("
                    + (known.isEmpty() ? "there are none" : "known: " + String.join(", ", known)) + ")");
        }
        Map<String, Object> own = new HashMap<>();
        Map<String, Object> storeSettings = new HashMap<>();
        settings.forEach((key, value) -> {
            if (key.startsWith(ObjectStoreRemoteStorageManagerProvider.STORE_CONFIG_PREFIX)) {
                storeSettings.put(
                        key.substring(ObjectStoreRemoteStorageManagerProvider.STORE_CONFIG_PREFIX.length()), value);
            } else {
                own.put(key, value);
            }
        });
        PluginSelection storeSelection =
                new PluginSelection(storeName.toString(), List.of(), storeSettings, selection.offered());
        ObjectStore store =
                registry.createObjectStore(storeName.toString(), withOffered(PluginKind.OBJECT_STORE, storeSelection));
        try {
            try {
                store.checkAccess();
            } catch (RemoteStorageException e) {
                throw new ConfigException(e.getMessage());
            }
            return plugin.createOverStore(
                    own,
                    metrics -> contexts.create(managerName, store, storeName.toString(), metrics),
                    store,
                    registry.metrics());
        } catch (RuntimeException e) {
            closeQuietly(store, e);
            throw e;
        }
    }

    /** The remote log metadata manager selected, configured; as {@link #remoteStorageManager}. */
    public RemoteLogMetadataManager remoteLogMetadataManager(PluginSelection selection) {
        if (byPlugin(PluginKind.REMOTE_LOG_METADATA_MANAGER, selection)) {
            return registry.createRemoteLogMetadataManager(
                    selection.nameOrClass(), withOffered(PluginKind.REMOTE_LOG_METADATA_MANAGER, selection));
        }
        ClassLoader loader = classPathLoader(selection);
        PluginMetrics metrics =
                registry.metrics().create(PluginKind.REMOTE_LOG_METADATA_MANAGER, selection.nameOrClass());
        RemoteLogMetadataManager instance = instantiate(selection, loader, RemoteLogMetadataManager.class, metrics);
        return new ClassLoaderAwareRemoteLogMetadataManager(instance, loader, Owned.NOTHING.andMetrics(metrics));
    }

    /**
     * Whether a discovered plugin serves the selection: always without a class path, and with one when a plugin
     * answers to the name, since the class it names then is Kafka's (LocalTieredStorage from Kafka's test jar, say),
     * which implements Kafka's interfaces and not Krabka's.
     */
    private boolean byPlugin(PluginKind kind, PluginSelection selection) {
        if (selection.classPath().isEmpty()) {
            return true;
        }
        if (!registry.has(kind, selection.nameOrClass())) {
            return false;
        }
        LOG.log(
                System.Logger.Level.INFO,
                "{0} names the {1} plugin; its class path {2} is not used",
                selection.nameOrClass(),
                registry.find(kind, selection.nameOrClass()).descriptor().name(),
                selection.classPath());
        return true;
    }

    private Map<String, ?> withOffered(PluginKind kind, PluginSelection selection) {
        if (!registry.has(kind, selection.nameOrClass())) {
            throw new PluginLoadException("no " + label(kind) + " plugin is named '" + selection.nameOrClass()
                    + "', and there is no class path to load a class of that name from; "
                    + registry.whyNotFound(kind, selection.nameOrClass()));
        }
        Set<String> declared = registry.configKeyNames(kind, selection.nameOrClass());
        Map<String, Object> settings = new HashMap<>(selection.settings());
        selection.offered().forEach((key, value) -> {
            if (declared.contains(key)) {
                settings.putIfAbsent(key, value);
            }
        });
        return settings;
    }

    private static String label(PluginKind kind) {
        return switch (kind) {
            case REMOTE_STORAGE_MANAGER -> "remote storage manager";
            case REMOTE_LOG_METADATA_MANAGER -> "remote log metadata manager";
            case OBJECT_STORE -> "object store";
        };
    }

    private static ClassLoader classPathLoader(PluginSelection selection) {
        URL[] urls = new URL[selection.classPath().size()];
        for (int i = 0; i < urls.length; i++) {
            Path entry = selection.classPath().get(i);
            if (!Files.exists(entry)) {
                throw new PluginLoadException(
                        "the class path of " + selection.nameOrClass() + " names " + entry + ", which does not exist");
            }
            try {
                urls[i] = entry.toUri().toURL();
            } catch (MalformedURLException e) {
                throw new PluginLoadException("the class path entry " + entry + " is not a URL: " + e.getMessage());
            }
        }
        return new PluginClassLoader(
                "class path of " + selection.nameOrClass(), urls, RemoteStorageManager.class.getClassLoader());
    }

    private static <T extends Configurable & Closeable> T instantiate(
            PluginSelection selection, ClassLoader loader, Class<T> type, PluginMetrics metrics) {
        String className = selection.nameOrClass();
        Map<String, Object> settings = new HashMap<>(selection.offered());
        settings.putAll(selection.settings());
        try {
            return ContextClassLoader.call(loader, () -> {
                Class<?> found = Class.forName(className, true, loader);
                if (!type.isAssignableFrom(found)) {
                    throw new PluginLoadException(className + " does not implement " + type.getName());
                }
                T instance = type.cast(found.getConstructor().newInstance());
                try {
                    instance.configure(settings);
                    if (instance instanceof Monitorable monitorable) {
                        monitorable.withPluginMetrics(metrics);
                    }
                } catch (RuntimeException | LinkageError e) {
                    closeQuietly(instance, e);
                    if (metrics instanceof AutoCloseable registered) {
                        closeQuietly(registered, e);
                    }
                    throw e;
                }
                return instance;
            });
        } catch (ClassNotFoundException e) {
            throw new PluginLoadException("no class " + className + " on its class path "
                    + selection.classPath().stream().map(Path::toString).collect(Collectors.joining(":")));
        } catch (PluginLoadException | ConfigException e) {
            throw e;
        } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
            throw new PluginLoadException(
                    className + " failed to create an instance: " + PluginLoadException.describe(e), e);
        }
    }

    private static void closeQuietly(AutoCloseable instance, Throwable failure) {
        try {
            instance.close();
        } catch (Exception e) {
            failure.addSuppressed(e);
        }
    }
}
