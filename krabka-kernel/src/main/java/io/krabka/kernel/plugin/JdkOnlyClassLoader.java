package io.krabka.kernel.plugin;

import java.util.Set;
import java.util.stream.Collectors;

/**
 * The parent of every plugin's class loader: the JDK's classes and nothing else. The platform class loader
 * alone is not enough: the JDK's built-in loaders share one map of packages, so the platform loader also
 * hands out the classes of every application module on the boot layer (the kernel, the launcher, their
 * libraries). This loader refuses those packages.
 */
final class JdkOnlyClassLoader extends ClassLoader {
    /** The one instance: the boot layer never changes. */
    static final JdkOnlyClassLoader INSTANCE = new JdkOnlyClassLoader();

    static {
        registerAsParallelCapable();
    }

    private final Set<String> hiddenPackages = ModuleLayer.boot().modules().stream()
            .filter(module -> !isJdkModule(module.getName()))
            .flatMap(module -> module.getPackages().stream())
            .collect(Collectors.toUnmodifiableSet());

    private JdkOnlyClassLoader() {
        super("jdk-only", ClassLoader.getPlatformClassLoader());
    }

    /** Whether a module is part of the JDK. */
    static boolean isJdkModule(String name) {
        return name.startsWith("java.") || name.startsWith("jdk.");
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        int dot = name.lastIndexOf('.');
        if (dot > 0 && hiddenPackages.contains(name.substring(0, dot))) {
            throw new ClassNotFoundException(name + " is not visible to plugins");
        }
        return super.loadClass(name, resolve);
    }
}
