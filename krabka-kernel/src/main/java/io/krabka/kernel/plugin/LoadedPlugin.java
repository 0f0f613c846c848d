package io.krabka.kernel.plugin;

import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.plugin.Configurable;
import io.krabka.spi.plugin.Monitorable;
import io.krabka.spi.plugin.ObjectStoreProvider;
import io.krabka.spi.plugin.ObjectStoreRemoteStorageManagerProvider;
import io.krabka.spi.plugin.PluginConfig;
import io.krabka.spi.plugin.PluginMetrics;
import io.krabka.spi.plugin.PluginProvider;
import io.krabka.spi.plugin.RemoteLogMetadataManagerProvider;
import io.krabka.spi.plugin.RemoteStorageManagerProvider;
import io.krabka.spi.storage.RemoteStorageContext;
import io.krabka.spi.storage.RemoteStorageManager;
import java.io.Closeable;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
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
     * A new instance configured with {@code raw} and, if it is {@link Monitorable}, given its metrics; wrapped so that
     * every call runs with the plugin's loader as the context class loader, and its metrics are removed when it
     * closes.
     *
     * @throws ConfigException     if a setting is unknown, missing or invalid
     * @throws PluginLoadException if the plugin fails to create or configure the instance
     */
    Configurable create(Map<String, ?> raw, PluginMetricsFactory metrics) {
        PluginMetrics own = metrics.create(descriptor.kind(), descriptor.name());
        return switch (provider) {
            case RemoteStorageManagerProvider rsm ->
                ClassLoaderAwareRemoteStorageManager.of(
                        configured(rsm, raw, rsm::create, own), loader, Owned.NOTHING.andMetrics(own));
            case RemoteLogMetadataManagerProvider rlmm ->
                new ClassLoaderAwareRemoteLogMetadataManager(
                        configured(rlmm, raw, rlmm::create, own), loader, Owned.NOTHING.andMetrics(own));
            case ObjectStoreProvider store ->
                new ClassLoaderAwareObjectStore(
                        configured(store, raw, store::create, own), loader, Owned.NOTHING.andMetrics(own));
        };
    }

    /**
     * A new instance of a store-backed remote storage manager over the context {@code context} makes of its metrics,
     * configured with {@code raw}; closing it closes {@code store} and removes its metrics after it.
     *
     * @throws ConfigException     if a setting is unknown, missing or invalid
     * @throws PluginLoadException if the plugin fails to create or configure the instance
     */
    RemoteStorageManager createOverStore(
            Map<String, ?> raw,
            Function<PluginMetrics, RemoteStorageContext> context,
            Closeable store,
            PluginMetricsFactory metrics) {
        ObjectStoreRemoteStorageManagerProvider backed = (ObjectStoreRemoteStorageManagerProvider) provider;
        PluginMetrics own = metrics.create(descriptor.kind(), descriptor.name());
        return ClassLoaderAwareRemoteStorageManager.of(
                configured(backed, raw, () -> backed.create(context.apply(own)), own),
                loader,
                new Owned(List.of(store)).andMetrics(own));
    }

    private <T extends Configurable & Closeable> T configured(
            PluginProvider<T> typed, Map<String, ?> raw, Supplier<? extends T> factory, PluginMetrics metrics) {
        try {
            return ContextClassLoader.call(loader, () -> {
                PluginConfig config = PluginConfig.parse(typed.configKeys(), raw);
                T instance = Objects.requireNonNull(factory.get(), "create() returned null");
                try {
                    instance.configure(config.values());
                    if (instance instanceof Monitorable monitorable) {
                        monitorable.withPluginMetrics(metrics);
                    }
                } catch (RuntimeException | LinkageError e) {
                    closeAfterFailure(instance, e);
                    closeAfterFailure(metrics, e);
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

    /**
     * An instance that failed to configure may already hold resources (files, threads, connections), and metrics it
     * registered.
     */
    private static void closeAfterFailure(Object instance, Throwable failure) {
        if (!(instance instanceof AutoCloseable closeable)) {
            return;
        }
        try {
            closeable.close();
        } catch (Exception e) {
            failure.addSuppressed(e);
        }
    }
}
