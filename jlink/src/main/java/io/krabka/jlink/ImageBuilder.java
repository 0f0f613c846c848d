package io.krabka.jlink;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds a runtime image in the steps of Helidon's Linker: find the JDK modules needed (jdeps), link them
 * (jlink), install the kernel's jars and the chosen plugins beside them, write the start script, smoke-run the
 * result. It all happens in a temporary folder next to the output, renamed into place only once the image runs,
 * so the output is a whole image or nothing.
 *
 * <p>An image holds {@code jdk/} (the linked JDK), {@code boot/} and {@code lib/} (the kernel), {@code plugins/<name>/}
 * and {@code bin/krabka}: the distribution's layout, so {@code krabka.home} means the same in both. The JDK keeps
 * a folder of its own because its {@code lib/} holds {@code jrt-fs.jar}, which on the module path becomes a module
 * that splits java.base's packages and stops the boot layer. jlink only links JDK modules: it refuses automatic
 * modules (kafka-clients, OpenTelemetry, the AWS SDK), so the kernel's jars stay jars.
 */
final class ImageBuilder {
    private final Distribution distribution;
    private final JdkModules jdkModules;
    private final Tool jlink;

    ImageBuilder(Distribution distribution, JdkModules jdkModules, Tool jlink) {
        this.distribution = distribution;
        this.jdkModules = jdkModules;
        this.jlink = jlink;
    }

    /**
     * Builds the image {@code profile} describes, with the plugin folders {@code pluginDirs} (a third party's, from
     * outside the distribution) beside the profile's, at {@code output}; an existing image there is replaced only if
     * asked.
     */
    Image build(Profile profile, List<Path> pluginDirs, Path output, boolean replace) {
        Map<String, Path> plugins = new LinkedHashMap<>();
        for (String name : distribution.select(profile)) {
            plugins.put(name, distribution.plugin(name));
        }
        for (Path dir : pluginDirs) {
            Path folder = dir.toAbsolutePath().normalize();
            if (!Files.isDirectory(folder)) {
                throw new ImageException("--plugin-dir " + dir + " is not a directory");
            }
            Distribution.jars(folder);
            String name = folder.getFileName().toString();
            if (plugins.putIfAbsent(name, folder) != null) {
                throw new ImageException("--plugin-dir " + dir + ": the image has a plugin folder named " + name
                        + " already, from " + plugins.get(name) + "; rename one of the folders");
            }
        }
        Path target = output.toAbsolutePath().normalize();
        checkTarget(target, replace);
        Path work;
        try {
            Files.createDirectories(target.getParent());
            work = Files.createTempDirectory(target.getParent(), "." + target.getFileName() + ".building-");
        } catch (IOException e) {
            throw new ImageException("cannot write next to " + target + ": " + e, e);
        }
        try {
            Image image = buildIn(work, plugins, target, replace);
            FileTrees.delete(work);
            return image;
        } catch (IOException | RuntimeException e) {
            try {
                FileTrees.delete(work);
            } catch (IOException | RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e instanceof ImageException image ? image : new ImageException("cannot build the image: " + e, e);
        }
    }

    private Image buildIn(Path work, Map<String, Path> plugins, Path target, boolean replace) throws IOException {
        Path image = work.resolve("image");
        List<String> modules = new ArrayList<>(
                jdkModules.required(List.of(distribution.boot(), distribution.lib()), List.copyOf(plugins.values())));
        jlink.run(List.of(
                "--add-modules",
                String.join(",", modules),
                "--strip-debug",
                "--no-header-files",
                "--no-man-pages",
                "--compress=zip-6",
                "--output",
                image.resolve("jdk").toString()));
        FileTrees.copy(distribution.boot(), image.resolve("boot"));
        FileTrees.copy(distribution.lib(), image.resolve("lib"));
        for (Map.Entry<String, Path> plugin : plugins.entrySet()) {
            FileTrees.copy(plugin.getValue(), image.resolve("plugins").resolve(plugin.getKey()));
        }
        Path script = image.resolve("bin").resolve("krabka");
        Files.createDirectories(script.getParent());
        Files.copy(distribution.startScript(), script);
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
        String version = SmokeRun.version(image, work.resolve("smoke.log"));
        SmokeRun.plugins(image, work.resolve("smoke-plugins.log"));
        install(image, target, work, replace);
        return new Image(target, modules, List.copyOf(plugins.keySet()), version);
    }

    private void checkTarget(Path target, boolean replace) {
        if (target.startsWith(distribution.home())) {
            throw new ImageException("the output " + target + " is inside the distribution " + distribution.home());
        }
        if (!Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        if (!replace) {
            throw new ImageException(target + " exists; pass --replace to replace it");
        }
        if (!isImage(target)) {
            throw new ImageException(target + " exists and is not a Krabka image; not replacing it");
        }
    }

    /** Whether a folder is a Krabka image, the only thing --replace may delete. */
    static boolean isImage(Path folder) {
        return Files.isRegularFile(folder.resolve("bin/krabka"), LinkOption.NOFOLLOW_LINKS)
                && Files.isRegularFile(folder.resolve("jdk/release"), LinkOption.NOFOLLOW_LINKS);
    }

    /** Renames the image into place; a replaced image goes into the work folder, which is deleted after. */
    private static void install(Path image, Path target, Path work, boolean replace) throws IOException {
        Path replaced = work.resolve("replaced");
        boolean replacing = replace && Files.exists(target, LinkOption.NOFOLLOW_LINKS);
        if (replacing) {
            Files.move(target, replaced, StandardCopyOption.ATOMIC_MOVE);
        }
        try {
            Files.move(image, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            if (replacing) {
                try {
                    Files.move(replaced, target, StandardCopyOption.ATOMIC_MOVE);
                } catch (IOException restore) {
                    e.addSuppressed(restore);
                }
            }
            throw e;
        }
    }
}
