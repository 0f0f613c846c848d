package io.krabka.kernel.plugin;

import io.krabka.spi.plugin.PluginKind;
import io.krabka.spi.plugin.PluginMetrics;

/**
 * Gives each plugin instance the kernel creates the metrics it publishes ({@link io.krabka.spi.plugin.Monitorable},
 * and a store-backed manager's context): one set per instance, which the kernel closes with the instance when it is
 * {@link AutoCloseable}, so that its metrics go with it.
 */
@FunctionalInterface
public interface PluginMetricsFactory {

    /**
     * Metrics that publish nowhere but check names as published ones do: for plugins run without a broker
     * ({@code krabka verify}, {@code krabka restore}, tests).
     */
    PluginMetricsFactory UNPUBLISHED = (kind, plugin) -> new UnpublishedPluginMetrics();

    /** The metrics of one instance of the plugin {@code plugin} of {@code kind}. */
    PluginMetrics create(PluginKind kind, String plugin);
}
