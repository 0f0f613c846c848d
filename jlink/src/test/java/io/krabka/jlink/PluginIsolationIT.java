package io.krabka.jlink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.jar.JarFile;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Why the boot layer holds only the JDK and the SPI. A plugin folder shaped like the S3 plugin's (an explicit
 * plugin module that provides, beside library jars that are automatic modules) bundles its own
 * {@code com.fasterxml.jackson.core}, a module the kernel's {@code lib/} holds too. Started as {@code ./krabka}
 * and {@code bin/krabka} start Krabka, the plugin loads, links to its own copy and cannot reach the kernel's. With
 * the kernel's libraries in the boot layer instead, the same folder does not resolve: an automatic module reads
 * every module of its parent layers, and there it would read a second jackson-core.
 *
 * <p>The plugin's provider is a probe: constructed when the kernel lists the plugins, it prints on standard error
 * what it linked to and what it can reach.
 */
class PluginIsolationIT {
    private static final Path DIST = Path.of(System.getProperty("krabka.dist"));
    private static final Path FIXTURE = Path.of(System.getProperty("krabka.fixtures"), "own-jackson");
    private static final Path JDK = Path.of(System.getProperty("java.home"), "bin");
    private static final String JACKSON_CORE = "com.fasterxml.jackson.core";

    @TempDir
    static Path work;

    private static Path home;
    private static Path plugin;

    /** A copy of the distribution with one more plugin folder, built from the fixture's sources. */
    @BeforeAll
    static void distributionWithAPluginBundlingItsOwnJacksonCore() throws IOException, InterruptedException {
        home = work.resolve("dist");
        FileTrees.copy(DIST, home);
        plugin = Files.createDirectories(home.resolve("plugins/own-jackson"));

        Path jacksonClasses = work.resolve("classes/jackson-core");
        javac(jacksonClasses, List.of(), FIXTURE.resolve("jackson-core"));
        Path manifest = Files.writeString(work.resolve("MANIFEST.MF"), "Automatic-Module-Name: " + JACKSON_CORE + "\n");
        Path jacksonJar = plugin.resolve("jackson-core-9.9.9.jar");
        run(
                JDK.resolve("jar").toString(),
                "--create",
                "--file",
                jacksonJar.toString(),
                "--manifest",
                manifest.toString(),
                "-C",
                jacksonClasses.toString(),
                ".");

        Path pluginClasses = work.resolve("classes/plugin");
        javac(
                pluginClasses,
                List.of("--module-path", spiJar() + File.pathSeparator + jacksonJar),
                FIXTURE.resolve("plugin"));
        run(
                JDK.resolve("jar").toString(),
                "--create",
                "--file",
                plugin.resolve("own-jackson-probe.jar").toString(),
                "-C",
                pluginClasses.toString(),
                ".");
    }

    /** Without these the checks below could not fail: the kernel's lib/ holds jackson-core, jackson-databind and JsonParser. */
    @Test
    void theKernelHasAJacksonCoreOfItsOwn() throws IOException {
        ModuleFinder lib = ModuleFinder.of(home.resolve("lib"));
        ModuleReference kernelJackson = lib.find(JACKSON_CORE).orElseThrow();
        assertTrue(lib.find("com.fasterxml.jackson.databind").isPresent());
        try (JarFile jar =
                new JarFile(Path.of(kernelJackson.location().orElseThrow()).toFile())) {
            assertNotNull(jar.getEntry("com/fasterxml/jackson/core/JsonParser.class"));
        }
        ModuleReference pluginJackson =
                ModuleFinder.of(plugin).find(JACKSON_CORE).orElseThrow();
        assertTrue(pluginJackson.descriptor().isAutomatic());
        assertEquals("9.9.9", pluginJackson.descriptor().rawVersion().orElseThrow());
        assertNotEquals(
                kernelJackson.descriptor().rawVersion(),
                pluginJackson.descriptor().rawVersion());
    }

    @Test
    void startedTheRealWayThePluginLoadsWithItsOwnJacksonCoreAndCannotReachTheKernels()
            throws IOException, InterruptedException {
        ImageRun run = ImageRun.run(
                work,
                Map.of("JAVA_HOME", JDK.getParent().toString()),
                "sh",
                home.resolve("bin/krabka").toString(),
                "plugins",
                "--json");
        assertEquals(0, run.exitCode(), run.err());

        Map<String, JsonNode> plugins = new HashMap<>();
        new ObjectMapper()
                .readTree(run.out())
                .required("plugins")
                .forEach(p -> plugins.put(p.required("name").asText(), p));
        assertEquals(
                Set.of("local", "inmemory", "topic", "s3", "gcs", "worm", "own-jackson"), plugins.keySet(), run.out());
        // The GCS client splits packages across its jars: its folder cannot be a layer, so it has a class loader.
        assertEquals("class-loader", plugins.get("gcs").required("isolation").asText());
        JsonNode probe = plugins.get("own-jackson");
        assertEquals("module-layer", probe.required("isolation").asText());
        assertEquals("com.example.ownjackson", probe.required("module").asText());
        assertEquals(plugin, Path.of(probe.required("source").asText()));

        assertEquals(
                Map.of(
                        "origin", "plugin", // linked to its own JsonFactory, not the kernel's
                        "jackson-core", JACKSON_CORE + "@9.9.9",
                        "same-loader", "true", // in the plugin's layer
                        "parents-are-boot", "true", // its layer's only parent is the boot layer
                        "finds-databind", "false", // the kernel's modules are not in its layers
                        "loads-JsonParser", "false", // nor are the kernel's classes
                        // a library that loads through the context class loader finds the plugin's classes too
                        "context-loader-is-plugins", "true"),
                probe(run.err()));
    }

    /** The failure the boot layer prevents: the kernel's libraries in the boot layer, as Krabka once started. */
    @Test
    void withTheKernelsLibrariesInTheBootLayerTheSameFolderDoesNotResolve() throws IOException, InterruptedException {
        ImageRun run = ImageRun.run(
                work,
                Map.of(),
                JDK.resolve("java").toString(),
                "-Dkrabka.home=" + home,
                "-p",
                home.resolve("boot") + File.pathSeparator + home.resolve("lib"),
                "-m",
                "io.krabka.launcher/io.krabka.launcher.Krabka",
                "plugins",
                "--json");
        // The folder is skipped and listed with the reason; the command still lists the others.
        assertEquals(0, run.exitCode(), run.err());
        Map<String, String> broken = new HashMap<>();
        new ObjectMapper()
                .readTree(run.out())
                .required("broken")
                .forEach(folder -> broken.put(
                        folder.required("folder").asText(),
                        folder.required("reason").asText()));
        assertEquals(
                "plugin folder " + plugin + " does not resolve as modules: Module " + JACKSON_CORE
                        + " reads another module named " + JACKSON_CORE,
                broken.get(plugin.toString()),
                run.out());
    }

    /** The probe's line on standard error, {@code probe: key=value ...}, as a map. */
    private static Map<String, String> probe(String err) {
        String line =
                err.lines().filter(l -> l.startsWith("probe: ")).findFirst().orElseThrow(() -> new AssertionError(err));
        return Stream.of(line.substring("probe: ".length()).split(" "))
                .map(pair -> pair.split("=", 2))
                .collect(Collectors.toMap(pair -> pair[0], pair -> pair[1]));
    }

    private static Path spiJar() throws IOException {
        try (Stream<Path> jars = Files.list(home.resolve("boot"))) {
            return jars.filter(jar -> jar.getFileName().toString().startsWith("krabka-spi-"))
                    .findFirst()
                    .orElseThrow();
        }
    }

    private static void javac(Path out, List<String> options, Path sources) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(
                JDK.resolve("javac").toString(),
                "--release",
                String.valueOf(Runtime.version().feature()),
                "-Xlint:all,-requires-automatic",
                "-Werror",
                "-d",
                out.toString()));
        command.addAll(options);
        try (Stream<Path> files = Files.walk(sources)) {
            files.filter(f -> f.toString().endsWith(".java")).forEach(f -> command.add(f.toString()));
        }
        run(command.toArray(String[]::new));
    }

    private static void run(String... command) throws IOException, InterruptedException {
        ImageRun run = ImageRun.run(work, Map.of(), command);
        assertEquals(0, run.exitCode(), String.join(" ", command) + "\n" + run.out() + run.err());
    }
}
