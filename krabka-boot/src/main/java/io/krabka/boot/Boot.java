package io.krabka.boot;

import java.lang.module.Configuration;
import java.lang.module.FindException;
import java.lang.module.ModuleFinder;
import java.lang.module.ResolutionException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * Resolves the distribution's {@code lib/} (the kernel, the launcher and their libraries) as a layer over the
 * boot layer and runs the launcher in it. The distribution's root comes from the system property
 * {@code krabka.home}.
 */
public final class Boot {
    private static final String LAUNCHER_MODULE = "io.krabka.launcher";
    private static final String LAUNCHER_CLASS = "io.krabka.launcher.Krabka";

    private Boot() {}

    /** Starts the launcher with these arguments. */
    public static void main(String[] args) throws Throwable {
        String home = System.getProperty("krabka.home");
        if (home == null || !Files.isDirectory(Path.of(home, "lib"))) {
            System.err.println(
                    "krabka: the system property krabka.home must name the distribution (a folder with lib/); it is "
                            + home);
            System.exit(1);
        }
        ModuleLayer kernel;
        try {
            ModuleLayer boot = ModuleLayer.boot();
            Configuration configuration = boot.configuration()
                    .resolveAndBind(ModuleFinder.of(Path.of(home, "lib")), ModuleFinder.of(), Set.of(LAUNCHER_MODULE));
            ModuleLayer.Controller controller = ModuleLayer.defineModulesWithOneLoader(
                    configuration, List.of(boot), ClassLoader.getPlatformClassLoader());
            kernel = controller.layer();
            // The launcher exports nothing to the world; only this module may call its main method.
            Module launcher = kernel.findModule(LAUNCHER_MODULE).orElseThrow();
            controller.addExports(
                    launcher, LAUNCHER_CLASS.substring(0, LAUNCHER_CLASS.lastIndexOf('.')), Boot.class.getModule());
        } catch (FindException | ResolutionException | LayerInstantiationException e) {
            System.err.println("krabka: the distribution in " + home + " is broken: " + e.getMessage());
            System.exit(1);
            return;
        }
        ClassLoader loader = kernel.findLoader(LAUNCHER_MODULE);
        Thread.currentThread().setContextClassLoader(loader);
        Method main = loader.loadClass(LAUNCHER_CLASS).getMethod("main", String[].class);
        try {
            main.invoke(null, (Object) args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
