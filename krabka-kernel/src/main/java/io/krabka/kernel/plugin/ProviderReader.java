package io.krabka.kernel.plugin;

import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.PluginKind;
import io.krabka.spi.plugin.PluginProvider;
import io.krabka.spi.plugin.SpiVersion;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;
import java.util.ServiceConfigurationError;
import java.util.ServiceLoader;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/**
 * Reads the providers one {@link ServiceLoader} finds into {@link LoadedPlugin}s: it constructs each provider
 * object (cheap, and never a plugin instance), reads its name, kind, version, SPI version, description and settings, and checks them.
 */
final class ProviderReader {
    private static final Pattern NAME = Pattern.compile("[a-z0-9][a-z0-9-]*");

    private final Optional<Path> folder;
    private final PluginIsolation isolation;

    ProviderReader(Optional<Path> folder, PluginIsolation isolation) {
        this.folder = folder;
        this.isolation = isolation;
    }

    /**
     * The providers of every kind that {@code services} finds and whose class {@code belongs} to the source being
     * read (a {@link ServiceLoader} also finds the providers of parent layers and loaders).
     */
    List<LoadedPlugin> readAll(
            Function<PluginKind, ServiceLoader<? extends PluginProvider<?>>> services, Predicate<Class<?>> belongs) {
        List<LoadedPlugin> plugins = new ArrayList<>();
        for (PluginKind kind : PluginKind.values()) {
            Iterator<? extends ServiceLoader.Provider<? extends PluginProvider<?>>> candidates =
                    services.apply(kind).stream().iterator();
            while (true) {
                ServiceLoader.Provider<? extends PluginProvider<?>> candidate;
                try {
                    if (!candidates.hasNext()) {
                        break;
                    }
                    candidate = candidates.next();
                } catch (ServiceConfigurationError | LinkageError e) {
                    throw new PluginLoadException(
                            where() + ": cannot list its " + kind + " providers: " + PluginLoadException.describe(e),
                            e);
                }
                if (belongs.test(candidate.type())) {
                    plugins.add(read(kind, candidate));
                }
            }
        }
        return plugins;
    }

    private LoadedPlugin read(PluginKind kind, ServiceLoader.Provider<? extends PluginProvider<?>> candidate) {
        Class<?> type = candidate.type();
        ClassLoader loader = type.getClassLoader();
        String jar = jarOf(type);
        Stated stated;
        try {
            stated = ContextClassLoader.call(loader, () -> {
                PluginProvider<?> provider = candidate.get();
                return new Stated(
                        provider,
                        provider.name(),
                        provider.kind(),
                        provider.version(),
                        provider.spiVersion(),
                        List.copyOf(provider.aliases()),
                        String.valueOf(provider.description()),
                        List.copyOf(provider.configKeys()));
            });
        } catch (ServiceConfigurationError | RuntimeException | LinkageError e) {
            // ServiceLoader wraps what the provider's constructor threw
            Throwable cause = e instanceof ServiceConfigurationError && e.getCause() != null ? e.getCause() : e;
            throw new PluginLoadException(
                    "plugin provider " + type.getName() + " in " + PluginDescriptor.origin(jar, folder)
                            + " failed to load: " + PluginLoadException.describe(cause),
                    cause);
        }
        String module = type.getModule().isNamed() ? type.getModule().getName() : jar;
        String origin = PluginDescriptor.origin(module, folder);
        if (stated.name() == null || !NAME.matcher(stated.name()).matches()) {
            throw new PluginLoadException("plugin name '" + stated.name() + "' of " + origin
                    + " breaks the naming rule: lower case letters, digits and dashes, not starting with a dash");
        }
        if (stated.kind() != kind) {
            throw new PluginLoadException(
                    "plugin '" + stated.name() + "' of " + origin + " says it is a " + stated.kind()
                            + " plugin but implements " + kind.providerType().getSimpleName());
        }
        checkSpiVersion(stated, origin);
        PluginDescriptor descriptor = new PluginDescriptor(
                stated.name(),
                kind,
                String.valueOf(stated.version()),
                stated.spiVersion(),
                module,
                folder,
                isolation,
                stated.aliases(),
                stated.description(),
                stated.settings());
        return new LoadedPlugin(descriptor, stated.provider(), loader);
    }

    private static void checkSpiVersion(Stated stated, String origin) {
        String plugin = "plugin '" + stated.name() + "' " + stated.version() + " of " + origin;
        SpiVersion builtAgainst;
        try {
            builtAgainst = SpiVersion.parse(stated.spiVersion());
        } catch (IllegalArgumentException e) {
            throw new PluginLoadException(
                    plugin + " states SPI version '" + stated.spiVersion() + "', which is not major.minor", e);
        }
        SpiVersion ours = SpiVersion.current();
        if (!ours.canLoad(builtAgainst)) {
            throw new PluginLoadException(plugin + " was built against SPI " + builtAgainst + "; this Krabka's SPI "
                    + ours + " loads only plugins built against SPI " + ours + " or an older " + ours.major() + ".x");
        }
    }

    /** The source of the plugins as messages name it: a plugin folder, or the boot layer. */
    private String where() {
        return folder.map(f -> "plugin folder " + f).orElse("the boot layer");
    }

    /** The file name of the jar (or classes directory) a class was loaded from. */
    private static String jarOf(Class<?> type) {
        CodeSource code = type.getProtectionDomain().getCodeSource();
        if (code == null || code.getLocation() == null) {
            return "unknown jar";
        }
        try {
            return Path.of(code.getLocation().toURI()).getFileName().toString();
        } catch (URISyntaxException | IllegalArgumentException e) {
            return code.getLocation().toString();
        }
    }

    /** What a provider says about itself. */
    private record Stated(
            PluginProvider<?> provider,
            String name,
            PluginKind kind,
            String version,
            String spiVersion,
            List<String> aliases,
            String description,
            List<ConfigKey> settings) {}
}
