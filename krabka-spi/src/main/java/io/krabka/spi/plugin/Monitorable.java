package io.krabka.spi.plugin;

/**
 * A plugin instance that publishes metrics of its own, as Kafka's {@code Monitorable} (KIP-877) lets a plugin do.
 * The kernel calls {@link #withPluginMetrics} once on each instance it creates that implements this interface — a
 * remote storage manager, a metadata manager or an object store — after {@link Configurable#configure} and before any
 * other call, and removes the instance's metrics when it closes the instance. Since SPI 1.3.
 */
public interface Monitorable {

    /**
     * Hands the instance the metrics it publishes. The instance registers what it publishes here (or later, from
     * any thread) and keeps the counters, timers and gauges it gets.
     *
     * @param metrics where the instance's metrics go, under its plugin's name
     */
    void withPluginMetrics(PluginMetrics metrics);
}
