package io.krabka.spi.plugin;

import java.lang.module.ModuleDescriptor;
import java.util.List;

/**
 * How a plugin declares itself: a name that configuration selects it by, its kind, its version, the SPI version
 * it was built against, the settings it takes, and a factory for instances. The kernel reads all of this before
 * it creates anything. A plugin module declares its provider with {@code provides} in its
 * {@code module-info.java}; the provider class needs a public no-argument constructor.
 *
 * @param <T> the type of the instances the provider creates
 */
public sealed interface PluginProvider<T>
        permits RemoteStorageManagerProvider, RemoteLogMetadataManagerProvider, ObjectStoreProvider {

    /**
     * {@return the name that configuration selects the plugin by, such as {@code local} or {@code s3}} Lower case
     * letters, digits and dashes, unique among the plugins of one kind.
     */
    String name();

    /**
     * Other names configuration may select the plugin by, such as the class name of the Kafka plugin it stands in
     * for, so that a Kafka broker's configuration selects it as is. Each is unique among the names and aliases of
     * the plugins of one kind; none by default. Since SPI 1.2.
     *
     * @return the aliases, none by default
     */
    default List<String> aliases() {
        return List.of();
    }

    /** {@return the extension point the plugin fills} */
    PluginKind kind();

    /**
     * The SPI version the plugin was built against. Implement it as {@code return SpiVersion.CURRENT;}: the
     * compiler copies the constant into the plugin's class, so the value is the version of the SPI on the
     * plugin's build path, which the kernel checks against its own.
     *
     * @return the SPI version, {@code major.minor}
     */
    String spiVersion();

    /** {@return the settings the plugin takes, with their types, defaults, documentation and validation} */
    List<ConfigKey> configKeys();

    /** {@return a new, not yet configured instance} */
    T create();

    /** {@return one line saying what the plugin does} */
    String description();

    /**
     * The plugin's own version: its module's version when it has one, else the implementation version of its
     * jar's manifest, else {@code unknown}.
     *
     * @return the plugin's version
     */
    default String version() {
        Module module = getClass().getModule();
        if (module.isNamed()) {
            ModuleDescriptor descriptor = module.getDescriptor();
            if (descriptor != null && descriptor.rawVersion().isPresent()) {
                return descriptor.rawVersion().get();
            }
        }
        String implementationVersion = getClass().getPackage().getImplementationVersion();
        return implementationVersion != null ? implementationVersion : "unknown";
    }
}
