/**
 * How a plugin declares itself to the kernel and what the kernel gives it: a {@link io.krabka.spi.plugin.PluginProvider}
 * per plugin (its name, kind, SPI version, settings and factory), the settings checked against its
 * {@link io.krabka.spi.plugin.ConfigKey}s, the broker's {@link io.krabka.spi.plugin.OfferedKeys}, and its own
 * metrics ({@link io.krabka.spi.plugin.Monitorable}).
 *
 * <h2>An instance's life</h2>
 * The kernel creates an instance with {@code create()}, calls {@code configure} once with the checked settings, then
 * {@code withPluginMetrics} if the instance is {@code Monitorable}, then uses it from its own threads, and closes it
 * once at the end. An instance that fails to configure is closed at once. Every call into a plugin runs with the
 * plugin's class loader as the thread's context class loader. The kernel closes an instance once no call of its own
 * threads is under way in it (streams it was handed may still be open). What holds after {@code close()} and on
 * interruption is stated by each extension point ({@link io.krabka.spi.storage.RemoteStorageManager},
 * {@link io.krabka.spi.storage.RemoteLogMetadataManager}, {@link io.krabka.spi.objectstore.ObjectStore}).
 *
 * <h2>Logging</h2>
 * A plugin logs through {@link java.lang.System.Logger}, one logger per class named after it
 * ({@code System.getLogger(MyStore.class.getName())}): the broker routes those to its own log, with its format and
 * levels, so an operator sets a plugin's level as any other logger's. A plugin bundles no logging backend of its
 * own; a library it bundles that logs through SLF4J 1.7 is bound to {@code java.util.logging}, the platform
 * logger's backend, by bundling {@code org.slf4j:slf4j-jdk14} beside it. Secrets (settings of type
 * {@link io.krabka.spi.plugin.ConfigType#PASSWORD}) never go into a log line; {@link io.krabka.spi.plugin.PluginConfig}'s
 * {@code toString} hides them.
 */
package io.krabka.spi.plugin;
