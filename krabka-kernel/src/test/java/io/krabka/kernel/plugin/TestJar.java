package io.krabka.kernel.plugin;

import io.krabka.spi.plugin.PluginProvider;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.spi.ToolProvider;
import java.util.stream.Collectors;

/**
 * A real jar built while a test runs (javac and jar through {@link ToolProvider}, in process): Java sources
 * compiled against the SPI (and any jars given), then
 * packed by the jar tool, with optional {@code META-INF/services} entries and manifest attributes. A source
 * named {@code module-info} makes it a modular jar.
 */
final class TestJar {
    private static final ToolProvider JAVAC = ToolProvider.findFirst("javac").orElseThrow();
    private static final ToolProvider JAR = ToolProvider.findFirst("jar").orElseThrow();

    private final Map<String, String> sources = new LinkedHashMap<>();
    private final Map<String, String> services = new LinkedHashMap<>();
    private final Map<String, String> manifest = new LinkedHashMap<>();
    private final List<Path> path = new ArrayList<>(List.of(locationOf(PluginProvider.class)));
    private final Path buildDirectory;
    private String moduleVersion;

    /** A jar whose sources and classes go to a fresh folder under {@code buildDirectory}. */
    TestJar(Path buildDirectory) {
        this.buildDirectory = buildDirectory;
    }

    /** Adds the source of a class (by binary name) or of {@code module-info}. */
    TestJar source(String className, String code) {
        sources.put(className, code);
        return this;
    }

    /** Compiles against {@code jar} too, on the module path for a modular jar, else on the class path. */
    TestJar compileAgainst(Path jar) {
        path.add(jar);
        return this;
    }

    /** Declares {@code implementation} as a provider of {@code service} in {@code META-INF/services}. */
    TestJar service(Class<?> service, String implementation) {
        services.put(service.getName(), implementation);
        return this;
    }

    /** Adds a main attribute to the manifest, such as {@code Implementation-Version}. */
    TestJar manifest(String name, String value) {
        manifest.put(name, value);
        return this;
    }

    /** The version recorded in module-info. */
    TestJar moduleVersion(String version) {
        moduleVersion = version;
        return this;
    }

    /** Compiles, packs and writes the jar to {@code target}, creating its folder. */
    Path writeTo(Path target) {
        try {
            Path work = Files.createTempDirectory(Files.createDirectories(buildDirectory), "jar-");
            Path src = work.resolve("src");
            Path classes = Files.createDirectories(work.resolve("classes"));
            List<String> javac =
                    new ArrayList<>(List.of("-d", classes.toString(), "-Xlint:all,-requires-automatic", "-Werror"));
            String pathText = path.stream().map(Path::toString).collect(Collectors.joining(File.pathSeparator));
            boolean modular = sources.containsKey("module-info");
            javac.addAll(List.of(modular ? "--module-path" : "--class-path", pathText));
            if (moduleVersion != null) {
                javac.addAll(List.of("--module-version", moduleVersion));
            }
            for (Map.Entry<String, String> source : sources.entrySet()) {
                Path file = src.resolve(source.getKey().replace('.', '/') + ".java");
                Files.createDirectories(file.getParent());
                Files.writeString(file, source.getValue());
                javac.add(file.toString());
            }
            run(JAVAC, javac);
            for (Map.Entry<String, String> service : services.entrySet()) {
                Path file = classes.resolve("META-INF/services/" + service.getKey());
                Files.createDirectories(file.getParent());
                Files.writeString(file, service.getValue() + "\n");
            }
            List<String> jar = new ArrayList<>(List.of("--create", "--file", target.toString()));
            if (!manifest.isEmpty()) {
                Path manifestFile = work.resolve("MANIFEST.MF");
                Files.writeString(
                        manifestFile,
                        manifest.entrySet().stream()
                                .map(e -> e.getKey() + ": " + e.getValue() + "\n")
                                .collect(Collectors.joining()));
                jar.addAll(List.of("--manifest", manifestFile.toString()));
            }
            jar.addAll(List.of("-C", classes.toString(), "."));
            Files.createDirectories(target.getParent());
            run(JAR, jar);
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Where a class was loaded from: the jar or classes directory of its module. */
    static Path locationOf(Class<?> type) {
        try {
            return Path.of(
                    type.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    private static void run(ToolProvider tool, List<String> args) {
        ByteArrayOutputStream output = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(output, true, StandardCharsets.UTF_8)) {
            int code = tool.run(out, out, args.toArray(String[]::new));
            if (code != 0) {
                throw new IllegalStateException(tool.name() + " failed (" + code + "): "
                        + output.toString(StandardCharsets.UTF_8) + "\nargs: " + String.join(" ", args));
            }
        }
    }
}
