package io.krabka.kernel.plugin;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.Enumeration;
import java.util.Objects;

/**
 * The class loader of a plugin whose jars cannot resolve as modules. It sees the JDK, the
 * SPI packages (from the SPI's own loader, so the plugin and the kernel share one {@code PluginProvider}) and the
 * plugin's jars: nothing of the kernel, its libraries or other plugins.
 */
final class PluginClassLoader extends URLClassLoader {
    private static final String SPI_PACKAGES = "io.krabka.spi.";
    private static final String SPI_RESOURCES = "io/krabka/spi/";

    static {
        registerAsParallelCapable();
    }

    private final ClassLoader spiLoader;

    PluginClassLoader(String name, URL[] jars, ClassLoader spiLoader) {
        super(name, jars, JdkOnlyClassLoader.INSTANCE);
        this.spiLoader = Objects.requireNonNull(spiLoader, "spiLoader");
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (name.startsWith(SPI_PACKAGES)) {
            return spiLoader.loadClass(name);
        }
        return super.loadClass(name, resolve);
    }

    @Override
    public URL getResource(String name) {
        return name.startsWith(SPI_RESOURCES) ? spiLoader.getResource(name) : super.getResource(name);
    }

    @Override
    public Enumeration<URL> getResources(String name) throws IOException {
        return name.startsWith(SPI_RESOURCES) ? spiLoader.getResources(name) : super.getResources(name);
    }
}
