package io.krabka.kernel.plugin;

import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.plugin.Configurable;
import io.krabka.spi.plugin.ObjectStoreProvider;
import io.krabka.spi.plugin.ObjectStoreRemoteStorageManagerProvider;
import io.krabka.spi.plugin.PluginConfig;
import io.krabka.spi.plugin.PluginProvider;
import io.krabka.spi.plugin.RemoteLogMetadataManagerProvider;
import io.krabka.spi.plugin.RemoteStorageManagerProvider;
import io.krabka.spi.storage.RemoteStorageContext;
import io.krabka.spi.storage.RemoteStorageManager;
import java.io.Closeable;
import java.io.IOException;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * A plugin found and checked, with its provider object and the class loader its code runs under.
 *
 * @param descriptor what it says about itself and where it came from
 * @param provider   its provider object (not an instance of the plugin)
 * @param loader     the loader of its classes, set as the context class loader around every call into it
 */
record LoadedPlugin(PluginDescriptor descriptor, PluginProvider<?> provider, ClassLoader loader) {

    LoadedPlugin {
        Objects.requireNonNull(descriptor, "descriptor");
        Objects.requireNonNull(provider, "provider");
        Objects.requireNonNull(loader, "loader");
    }

    /**
     * A new instance configured with {@code raw}, wrapped so that every call runs with the plugin's loader as
     * the context class loader.
     *
     * @throws ConfigException     if a setting is unknown, missing or invalid
     * @throws PluginLoadException if the plugin fails to create or configure the instance
     */
    Configurable create(Map<String, ?> raw) {
        return switch (provider) {
            case RemoteStorageManagerProvider rsm ->
                ClassLoaderAwareRemoteStorageManager.of(configured(rsm, raw), loader, Optional.empty());
            case RemoteLogMetadataManagerProvider rlmm ->
                new ClassLoaderAwareRemoteLogMetadataManager(configured(rlmm, raw), loader);
            case ObjectStoreProvider store -> new ClassLoaderAwareObjectStore(configured(store, raw), loader);
        };
    }

    /**
     * A new instance of a store-backed remote storage manager over {@code context}, configured with {@code raw};
     * closing it closes {@code store} after it.
     *
     * @throws ConfigException     if a setting is unknown, missing or invalid
     * @throws PluginLoadException if the plugin fails to create or configure the instance
     */
    RemoteStorageManager createOverStore(Map<String, ?> raw, RemoteStorageContext context, Closeable store) {
        ObjectStoreRemoteStorageManagerProvider backed = (ObjectStoreRemoteStorageManagerProvider) provider;
        return ClassLoaderAwareRemoteStorageManager.of(
                configured(backed, raw, () -> backed.create(context)), loader, Optional.of(store));
    }

    private <T extends Configurable & Closeable> T configured(PluginProvider<T> typed, Map<String, ?> raw) {
        return configured(typed, raw, typed::create);
    }

    private <T extends Configurable & Closeable> T configured(
            PluginProvider<T> typed, Map<String, ?> raw, Supplier<? extends T> factory) {
        try {
            return ContextClassLoader.call(loader, () -> {
                PluginConfig config = PluginConfig.parse(typed.configKeys(), raw);
                T instance = Objects.requireNonNull(factory.get(), "create() returned null");
                try {
                    instance.configure(config.values());
                } catch (RuntimeException | LinkageError e) {
                    closeAfterFailure(instance, e);
                    throw e;
                }
                return instance;
            });
        } catch (ConfigException e) {
            throw e;
        } catch (RuntimeException | LinkageError e) {
            throw new PluginLoadException(
                    "plugin '" + descriptor.name() + "' of " + descriptor.origin() + " failed to create an instance: "
                            + PluginLoadException.describe(e),
                    e);
        }
    }

    /** An instance that failed to configure may already hold resources (files, threads, connections). */
    private static void closeAfterFailure(Closeable instance, Throwable failure) {
        try {
            instance.close();
        } catch (IOException | RuntimeException e) {
            failure.addSuppressed(e);
        }
    }
}
