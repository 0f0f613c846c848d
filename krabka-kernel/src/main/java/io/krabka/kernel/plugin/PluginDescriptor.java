package io.krabka.kernel.plugin;

import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.PluginKind;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What the kernel knows about a loaded plugin, read from its provider before any instance exists.
 *
 * @param name       the name configuration selects it by
 * @param kind       the extension point it fills
 * @param version    the plugin's own version
 * @param spiVersion the SPI version it was built against
 * @param module     the module that holds its provider, or the jar for a class-loader plugin
 * @param folder     the plugin folder it was loaded from; empty for a plugin on the boot layer
 * @param isolation  how it is kept apart from the kernel
 * @param aliases    other names configuration selects it by, such as the Kafka class it stands in for
 * @param description one line saying what it does
 * @param settings   the settings it takes
 */
public record PluginDescriptor(
        String name,
        PluginKind kind,
        String version,
        String spiVersion,
        String module,
        Optional<Path> folder,
        PluginIsolation isolation,
        List<String> aliases,
        String description,
        List<ConfigKey> settings) {

    /** Validates the parts: a boot plugin has no folder, any other has one. */
    public PluginDescriptor {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(spiVersion, "spiVersion");
        Objects.requireNonNull(module, "module");
        Objects.requireNonNull(folder, "folder");
        Objects.requireNonNull(isolation, "isolation");
        aliases = List.copyOf(aliases);
        Objects.requireNonNull(description, "description");
        settings = List.copyOf(settings);
        if (folder.isEmpty() != (isolation == PluginIsolation.BOOT)) {
            throw new IllegalArgumentException(
                    "a " + isolation.label() + " plugin " + (folder.isEmpty() ? "needs a folder" : "has no folder"));
        }
    }

    /** Whether configuration naming {@code nameOrAlias} selects this plugin. */
    public boolean answersTo(String nameOrAlias) {
        return name.equals(nameOrAlias) || aliases.contains(nameOrAlias);
    }

    /** Where it was loaded from: {@code boot}, or the plugin folder. */
    public String source() {
        return folder.map(Path::toString).orElse("boot");
    }

    /** The module or jar and where it came from, as messages name a plugin. */
    String origin() {
        return origin(module, folder);
    }

    /** How messages name a module or jar from a folder (or the boot layer), before a descriptor exists. */
    static String origin(String moduleOrJar, Optional<Path> folder) {
        return moduleOrJar + " (" + folder.map(Path::toString).orElse("boot") + ")";
    }
}
