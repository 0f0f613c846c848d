package io.krabka.jlink;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.lang.module.Configuration;
import java.lang.module.ModuleFinder;
import java.lang.module.ResolvedModule;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Builds the minimal profile's image from the distribution, as jlink/build-image does, and runs it. */
class MinimalImageIT {
    private static final Path DIST = Path.of(System.getProperty("krabka.dist"));

    @TempDir
    static Path work;

    private static Path image;
    private static String report;

    @BeforeAll
    static void buildImage() throws IOException, InterruptedException {
        image = work.resolve("images/minimal");
        ImageRun build = ImageRun.buildImage(work, DIST, "--profile", "minimal", "--output", image.toString());
        assertEquals(BuildImage.OK, build.exitCode(), build.err());
        report = build.out();
        image = image.toRealPath();
    }

    @Test
    void reportsWhatItBuilt() {
        List<String> lines = report.lines().toList();
        assertEquals("image " + image, lines.get(0));
        assertEquals("  plugins      local, inmemory, topic", lines.get(2));
        assertEquals("  smoke run    krabka " + System.getProperty("krabka.version"), lines.get(4));
    }

    @Test
    void runsOnItsOwnJavaWithNoJdkAround() throws IOException, InterruptedException {
        ImageRun run = ImageRun.run(
                work,
                Map.of("KRABKA_JAVA_OPTS", "-XshowSettings:properties"),
                image.resolve("bin/krabka").toString(),
                "version");
        assertEquals(0, run.exitCode(), run.err());
        List<String> lines = run.out().lines().toList();
        assertEquals("krabka " + System.getProperty("krabka.version"), lines.get(0));
        assertTrue(lines.get(2).startsWith("java " + Runtime.version().feature() + "."), run.out());
        assertTrue(run.err().contains("java.home = " + image.resolve("jdk") + "\n"), run.err());
    }

    @Test
    void linksOnlyTheJdkModulesItNeeds() throws IOException, InterruptedException {
        ImageRun run =
                ImageRun.run(work, Map.of(), image.resolve("jdk/bin/java").toString(), "--list-modules");
        assertEquals(0, run.exitCode(), run.err());
        Set<String> linked = run.out()
                .lines()
                .map(line -> line.substring(0, line.indexOf('@')))
                .collect(Collectors.toCollection(TreeSet::new));
        String reported = report.lines()
                .filter(line -> line.startsWith("  jdk modules  "))
                .findFirst()
                .orElseThrow()
                .substring(15);
        Set<String> closure = Configuration.empty()
                .resolve(ModuleFinder.ofSystem(), ModuleFinder.of(), List.of(reported.split(", ")))
                .modules()
                .stream()
                .map(ResolvedModule::name)
                .collect(Collectors.toCollection(TreeSet::new));
        assertEquals(closure, linked);
        // jackson-databind requires java.logging (jdeps does not see it); the JDK's tools are never linked, nor
        // what the libraries require only static: java.desktop (jackson-databind's java.beans support), jdk.jfr
        // (Netty's events).
        assertTrue(linked.contains("java.logging"), linked.toString());
        assertFalse(linked.contains("java.desktop") || linked.contains("jdk.jfr"), linked.toString());
        // The broker's health endpoint (the kernel requires jdk.httpserver), its stop signals (the launcher
        // requires jdk.unsupported).
        assertTrue(linked.containsAll(List.of("jdk.httpserver", "jdk.unsupported")), linked.toString());
        assertFalse(
                linked.contains("jdk.jlink") || linked.contains("jdk.compiler") || linked.contains("jdk.jshell"),
                linked.toString());
    }

    @Test
    void holdsTheKernelAndTheProfilesPlugins() throws IOException {
        assertEquals(files(DIST.resolve("boot")), files(image.resolve("boot")));
        assertEquals(files(DIST.resolve("lib")), files(image.resolve("lib")));
        assertEquals(Set.of("inmemory", "local", "topic"), names(image.resolve("plugins")));
        for (String plugin : List.of("inmemory", "local", "topic")) {
            assertEquals(
                    files(DIST.resolve("plugins").resolve(plugin)),
                    files(image.resolve("plugins").resolve(plugin)));
        }
        assertEquals(Set.of("bin", "boot", "jdk", "lib", "plugins"), names(image));
        assertEquals(Set.of("minimal"), names(work.resolve("images")));
    }

    /** Waits for the merge of `krabka plugins` and the local and inmemory plugins; fails before it. */
    @Test
    void listsExactlyTheProfilesPlugins() throws IOException, InterruptedException {
        ImageRun run = ImageRun.run(work, Map.of(), image.resolve("bin/krabka").toString(), "plugins", "--json");
        assertEquals(0, run.exitCode(), run.err());
        Map<String, JsonNode> plugins = new HashMap<>();
        new ObjectMapper()
                .readTree(run.out())
                .required("plugins")
                .forEach(plugin -> plugins.put(plugin.required("name").asText(), plugin));
        assertEquals(Set.of("local", "inmemory", "topic"), plugins.keySet());
        for (Map.Entry<String, JsonNode> plugin : plugins.entrySet()) {
            Path source = Path.of(plugin.getValue().required("source").asText());
            assertEquals(
                    image.resolve("plugins").resolve(plugin.getKey()),
                    source.toRealPath(),
                    plugin.getValue().toString());
        }
    }

    /** The broker runs on the image's own Java: formats on first use, gets ready, stops cleanly on SIGTERM. */
    @Test
    void runsTheBroker() throws IOException, InterruptedException {
        try (ImageBroker broker = ImageBroker.start(image, work)) {
            broker.awaitReady();
            assertEquals(0, broker.stop(), broker.errors());
            assertTrue(broker.errors().contains("Shut down cleanly"), broker.errors());
        }
    }

    private static Map<String, Long> files(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            Map<String, Long> sizes = new HashMap<>();
            for (Path file : files.toList()) {
                sizes.put(file.getFileName().toString(), Files.size(file));
            }
            return sizes;
        }
    }

    private static Set<String> names(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(file -> file.getFileName().toString()).collect(Collectors.toSet());
        }
    }
}
