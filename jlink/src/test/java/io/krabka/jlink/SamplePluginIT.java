package io.krabka.jlink;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.krabka.testkit.RemoteStorageManagerConformance;
import java.io.IOException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

/**
 * Builds examples/rsm-sample as a third party would, with the repository's Maven wrapper against the three artifacts
 * Krabka publishes for plugins alone, checks that its conformance kit run passed, and builds a runtime image with it
 * as its README says: its bundle unpacked into a folder of its own, given to {@code build-image --plugin-dir} beside
 * the minimal profile, so the image links the JDK modules the plugin needs and its smoke run loads it.
 *
 * <p>The example builds in a local repository of its own that starts with only {@code krabka-bom},
 * {@code krabka-spi} and {@code krabka-testkit}, as this build installed them. Everything else it needs (JUnit,
 * Maven's plugins) it downloads, offline, from this build's local repository, mirrored for every repository, whose
 * {@code io/krabka} the mirror does not serve (Maven's remote repository filter). So an artifact that needed
 * {@code krabka-parent} or any other Krabka artifact could not resolve, and the build would fail.
 */
class SamplePluginIT {
    private static final Path DIST = Path.of(System.getProperty("krabka.dist"));
    private static final Path ROOT = Path.of(System.getProperty("krabka.root"));
    private static final Path M2 = Path.of(System.getProperty("krabka.m2"));
    private static final String VERSION = System.getProperty("krabka.version");
    private static final String KIT_REPORT =
            "target/surefire-reports/TEST-com.example.krabka.rsm.sample.PackedRemoteStorageManagerConformanceTest.xml";
    private static final String BUNDLE = "target/krabka-rsm-sample-1.0.0-plugin.zip";
    /** What a plugin builds against: the BOM, the SPI and the kit. */
    private static final List<String> PUBLISHED = List.of("krabka-bom", "krabka-spi", "krabka-testkit");
    /** The groups of the BOMs krabka-parent imports for Krabka's own modules: none may reach a plugin. */
    private static final List<String> KRABKAS_OWN_BOMS =
            List.of("com.fasterxml.jackson", "io.netty", "io.opentelemetry", "com.google", "software.amazon.awssdk");
    /** The id of the mirror that serves this build's local repository to the example's build. */
    private static final String MIRROR = "this-build";

    @TempDir
    static Path work;

    private static Path example;
    private static Path repository;
    private static Path image;

    @BeforeAll
    static void buildTheExampleAndAnImage() throws IOException, InterruptedException {
        assertTheInstalledSpiIsThisBuilds();
        example = work.resolve("rsm-sample");
        Files.createDirectories(example);
        Files.copy(ROOT.resolve("examples/rsm-sample/pom.xml"), example.resolve("pom.xml"));
        FileTrees.copy(ROOT.resolve("examples/rsm-sample/src"), example.resolve("src"));
        repository = publishedArtifactsAlone(work.resolve("repository"));
        mavenVerify(example, repository);

        Path plugin = Files.createDirectories(work.resolve("third-party/sample"));
        unzip(example.resolve(BUNDLE), plugin);
        image = work.resolve("images/minimal");
        ImageRun build = ImageRun.buildImage(
                work, DIST, "--profile", "minimal", "--plugin-dir", plugin.toString(), "--output", image.toString());
        assertEquals(BuildImage.OK, build.exitCode(), build.err());
        assertTrue(build.out().contains("plugins      local, inmemory, topic, sample"), build.out());
        image = image.toRealPath();
    }

    @Test
    void everyRuleOfTheKitRanAndPassedOrDoesNotApply() throws Exception {
        Map<String, List<String>> verdicts = verdicts(example.resolve(KIT_REPORT));
        assertEquals(kitRules(), verdicts.keySet(), "the report holds every rule of the kit");
        Map<String, List<String>> notPassed = new TreeMap<>(verdicts);
        notPassed.values().removeIf(outcomes -> outcomes.stream().allMatch("passed"::equals));
        // The sample declares DELETE and DURABLE, not CUSTOM_METADATA: exactly two rules are about others.
        assertEquals(
                Map.of(
                        "optional_copyReturnsCustomMetadataThatLaterCallsReceive", List.of("NOT APPLICABLE"),
                        "required_withoutDeleteEveryDeleteIsRefusedAndNothingIsLost", List.of("NOT APPLICABLE")),
                notPassed);
        assertEquals(List.of("passed"), verdicts.get("required_largeSegmentIsStreamedWithBoundedMemory"));
    }

    /**
     * The example built from the three artifacts alone: its repository holds no other Krabka artifact, and their
     * poms stand on their own, without a parent, every dependency with its version.
     */
    @Test
    void theExampleBuiltAgainstThePublishedArtifactsAlone() throws Exception {
        try (var krabka = Files.list(repository.resolve("io/krabka"))) {
            assertEquals(
                    new TreeSet<>(PUBLISHED),
                    krabka.map(p -> p.getFileName().toString()).collect(Collectors.toCollection(TreeSet::new)),
                    "the example's repository holds the published artifacts and no other Krabka artifact:"
                            + " krabka-parent never resolved");
        }
        for (String artifact : List.of("krabka-spi", "krabka-testkit")) {
            Path dir = repository.resolve("io/krabka").resolve(artifact).resolve(VERSION);
            for (String classifier : List.of("", "-sources", "-javadoc")) {
                Path jar = dir.resolve(artifact + "-" + VERSION + classifier + ".jar");
                assertTrue(Files.isRegularFile(jar), jar + " is missing");
            }
        }
        assertEquals(Map.of(), publishedDependencies("krabka-spi"), "the SPI depends on nothing");
        assertEquals(
                Map.of(
                        "io.krabka:krabka-spi", VERSION,
                        "org.junit.jupiter:junit-jupiter-api", "5.14.4",
                        "org.junit.jupiter:junit-jupiter-params", "5.14.4"),
                publishedDependencies("krabka-testkit"));
    }

    /**
     * A broker on the image tiers to the sample (the settings select it by name), and the metrics the plugin
     * registers when the kernel hands it its own are on {@code /metrics}, under the plugin's name.
     */
    @Test
    void aBrokerOnTheImageRunsTheSampleAndShowsItsMetrics() throws IOException, InterruptedException {
        Path brokerWork = Files.createDirectories(work.resolve("broker"));
        Path tier = Files.createDirectories(brokerWork.resolve("tier"));
        try (ImageBroker broker = ImageBroker.start(
                image,
                brokerWork,
                "--override",
                "remote.log.storage.manager.class.name=sample",
                "--override",
                "rsm.config.dir=" + tier)) {
            broker.awaitReady();
            String metrics = broker.get("/metrics");
            for (String series : List.of(
                    "kafka_log_remote_remotestoragemanager_copyrateandtimems_count{plugin=\"sample\"} 0",
                    "kafka_log_remote_remotestoragemanager_copybytespersec_count{plugin=\"sample\"} 0",
                    "kafka_log_remote_remotestoragemanager_copiesinprogress_value{plugin=\"sample\"} 0")) {
                assertTrue(metrics.lines().anyMatch(series::equals), series + " in\n" + metrics);
            }
            assertTrue(
                    metrics.contains("# TYPE kafka_log_remote_remotestoragemanager_copyrateandtimems_count counter"),
                    metrics);
            assertEquals(0, broker.stop(), broker.errors());
        }
    }

    @Test
    void theImageListsTheSamplePluginBesideTheProfilesPlugins() throws IOException, InterruptedException {
        ImageRun run = ImageRun.run(work, Map.of(), image.resolve("bin/krabka").toString(), "plugins", "--json");
        assertEquals(0, run.exitCode(), run.err());
        Map<String, JsonNode> plugins = new HashMap<>();
        new ObjectMapper()
                .readTree(run.out())
                .required("plugins")
                .forEach(plugin -> plugins.put(plugin.required("name").asText(), plugin));
        assertEquals(Set.of("local", "inmemory", "topic", "sample"), plugins.keySet(), run.out());
        JsonNode sample = plugins.get("sample");
        assertEquals("REMOTE_STORAGE_MANAGER", sample.required("kind").asText());
        assertEquals("1.0.0", sample.required("version").asText());
        assertEquals(
                "1.3",
                sample.required("spiVersion").asText(),
                "the example states the SPI it was built against, the current one");
        assertEquals("com.example.krabka.rsm.sample", sample.required("module").asText());
        assertEquals("module-layer", sample.required("isolation").asText());
        assertEquals(
                image.resolve("plugins/sample"),
                Path.of(sample.required("source").asText()).toRealPath());
        for (String plugin : List.of("local", "inmemory", "topic")) {
            assertEquals(
                    "module-layer",
                    plugins.get(plugin).required("isolation").asText(),
                    plugins.get(plugin).toString());
        }
    }

    /** What the plugin's classes use, the image's JDK holds: jdeps run again over the plugin folder of the image. */
    @Test
    void theImageLinksEveryJdkModuleThePluginNeeds() throws IOException, InterruptedException {
        Set<String> needed = new JdkModules(Tool.find("jdeps"))
                .required(
                        List.of(image.resolve("boot"), image.resolve("lib")), List.of(image.resolve("plugins/sample")));
        ImageRun run =
                ImageRun.run(work, Map.of(), image.resolve("jdk/bin/java").toString(), "--list-modules");
        assertEquals(0, run.exitCode(), run.err());
        Set<String> linked = run.out()
                .lines()
                .map(line -> line.substring(0, line.indexOf('@')))
                .collect(Collectors.toSet());
        assertTrue(linked.containsAll(needed), "needed " + needed + ", linked " + linked);
    }

    /**
     * The example resolves krabka-spi from the local repository, the distribution took this build's: they must be
     * the same jar, or the example was built against another Krabka.
     */
    private static void assertTheInstalledSpiIsThisBuilds() throws IOException {
        String jar = "krabka-spi-" + VERSION + ".jar";
        Path installed = M2.resolve("io/krabka/krabka-spi").resolve(VERSION).resolve(jar);
        assertTrue(
                Files.isRegularFile(installed),
                installed + " is missing: the example builds against installed"
                        + " artifacts, so run ./mvnw install (./run-tests)");
        assertArrayEquals(
                Files.readAllBytes(DIST.resolve("boot").resolve(jar)),
                Files.readAllBytes(installed),
                installed + " is not this build's SPI: run ./mvnw install (./run-tests)");
    }

    /**
     * A new local repository holding krabka-bom, krabka-spi and krabka-testkit as this build installed them (the
     * files a deploy publishes: poms, jars, sources, Javadoc), and a filter that keeps the mirror of this build's
     * repository from serving any of {@code io/krabka}: every path prefix of that repository but that one.
     */
    private static Path publishedArtifactsAlone(Path repository) throws IOException {
        for (String artifact : PUBLISHED) {
            Path from = M2.resolve("io/krabka").resolve(artifact).resolve(VERSION);
            Path to = Files.createDirectories(
                    repository.resolve("io/krabka").resolve(artifact).resolve(VERSION));
            try (var files = Files.list(from)) {
                for (Path file : files.filter(f ->
                                f.toString().endsWith(".pom") || f.toString().endsWith(".jar"))
                        .toList()) {
                    Files.copy(file, to.resolve(file.getFileName()));
                }
            }
        }
        List<String> prefixes = new ArrayList<>();
        try (var top = Files.list(M2);
                var io = Files.list(M2.resolve("io"))) {
            top.filter(Files::isDirectory)
                    .map(dir -> "/" + dir.getFileName())
                    .filter(prefix -> !prefix.equals("/io"))
                    .forEach(prefixes::add);
            io.filter(Files::isDirectory)
                    .map(dir -> "/io/" + dir.getFileName())
                    .filter(prefix -> !prefix.equals("/io/krabka"))
                    .forEach(prefixes::add);
        }
        Path filters = Files.createDirectories(repository.resolve(".remoteRepositoryFilters"));
        Files.write(filters.resolve("prefixes-" + MIRROR + ".txt"), prefixes);
        return repository;
    }

    /** The dependencies the installed pom of a published artifact names, groupId:artifactId to version. */
    private static Map<String, String> publishedDependencies(String artifact) throws Exception {
        Path pom = repository
                .resolve("io/krabka")
                .resolve(artifact)
                .resolve(VERSION)
                .resolve(artifact + "-" + VERSION + ".pom");
        String text = Files.readString(pom, StandardCharsets.UTF_8);
        Element project = DocumentBuilderFactory.newInstance()
                .newDocumentBuilder()
                .parse(pom.toFile())
                .getDocumentElement();
        for (String absent : List.of("parent", "dependencyManagement", "properties")) {
            assertEquals(0, project.getElementsByTagName(absent).getLength(), pom + " has a " + absent + ":\n" + text);
        }
        for (String group : KRABKAS_OWN_BOMS) {
            assertTrue(!text.contains(group), pom + " names " + group + ":\n" + text);
        }
        Map<String, String> dependencies = new TreeMap<>();
        NodeList declared = project.getElementsByTagName("dependency");
        for (int i = 0; i < declared.getLength(); i++) {
            Element dependency = (Element) declared.item(i);
            String version = child(dependency, "version");
            assertTrue(!version.isEmpty() && !version.contains("$"), pom + ": a dependency without its version");
            dependencies.put(child(dependency, "groupId") + ":" + child(dependency, "artifactId"), version);
        }
        return dependencies;
    }

    private static String child(Element element, String name) {
        NodeList found = element.getElementsByTagName(name);
        return found.getLength() == 0 ? "" : found.item(0).getTextContent().trim();
    }

    /**
     * Runs {@code ./mvnw verify} on the example in {@code repository}, with this build's Krabka version and this
     * JDK. Offline but for the mirror of every repository, this build's local one, whose {@code file:} URL stays
     * allowed: the example uses only plugins and libraries this build has already resolved.
     */
    private static void mavenVerify(Path project, Path repository) throws IOException, InterruptedException {
        Path log = work.resolve("example-build.log");
        Path settings = Files.writeString(work.resolve("settings.xml"), """
                <settings>
                  <mirrors>
                    <mirror>
                      <id>%s</id>
                      <mirrorOf>*</mirrorOf>
                      <url>%s</url>
                    </mirror>
                  </mirrors>
                </settings>
                """.formatted(MIRROR, M2.toUri()));
        ProcessBuilder maven = new ProcessBuilder(
                        ROOT.resolve("mvnw").toString(),
                        "-B",
                        "-o",
                        "-ntp",
                        "-s",
                        settings.toString(),
                        "-f",
                        project.resolve("pom.xml").toString(),
                        "-Dmaven.repo.local=" + repository,
                        "-Daether.offline.protocols=file",
                        "-Daether.remoteRepositoryFilter.prefixes=true",
                        "-Dkrabka.version=" + VERSION,
                        "verify")
                .directory(project.toFile())
                .redirectErrorStream(true)
                .redirectOutput(log.toFile());
        maven.environment().put("JAVA_HOME", System.getProperty("java.home"));
        // Set by the Maven that runs this test; the example's build finds its own.
        maven.environment().remove("MAVEN_PROJECTBASEDIR");
        Process process = maven.start();
        // Not a measurement: only keeps a hung build from hanging this one.
        if (!process.waitFor(10, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("the example's build did not finish; see " + log);
        }
        String output = Files.readString(log, StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), "the example's build failed:\n" + output);
    }

    /** The outcome of every run of every test method in a surefire XML report, by method name. */
    private static Map<String, List<String>> verdicts(Path report) throws Exception {
        NodeList cases = DocumentBuilderFactory.newInstance()
                .newDocumentBuilder()
                .parse(report.toFile())
                .getElementsByTagName("testcase");
        Map<String, List<String>> verdicts = new TreeMap<>();
        for (int i = 0; i < cases.getLength(); i++) {
            Element testCase = (Element) cases.item(i);
            String name = testCase.getAttribute("name").split("[(\\[]", 2)[0];
            verdicts.computeIfAbsent(name, n -> new ArrayList<>()).add(outcome(testCase));
        }
        return verdicts;
    }

    /** passed, NOT APPLICABLE, or what went wrong. */
    private static String outcome(Element testCase) {
        for (String verdict : List.of("failure", "error", "skipped")) {
            NodeList found = testCase.getElementsByTagName(verdict);
            if (found.getLength() > 0) {
                String text = found.item(0).getTextContent();
                return verdict.equals("skipped") && text.contains("TestAbortedException: NOT APPLICABLE: ")
                        ? "NOT APPLICABLE"
                        : verdict + ": " + text.lines().findFirst().orElse("");
            }
        }
        return "passed";
    }

    /** The kit's rules: its public final methods named required_ or optional_. */
    private static Set<String> kitRules() {
        return Arrays.stream(RemoteStorageManagerConformance.class.getDeclaredMethods())
                .filter(m -> Modifier.isPublic(m.getModifiers()) && Modifier.isFinal(m.getModifiers()))
                .map(Method::getName)
                .filter(name -> name.startsWith("required_") || name.startsWith("optional_"))
                .collect(Collectors.toCollection(TreeSet::new));
    }

    private static void unzip(Path zip, Path into) throws IOException {
        try (ZipInputStream in = new ZipInputStream(Files.newInputStream(zip))) {
            for (ZipEntry entry; (entry = in.getNextEntry()) != null; ) {
                Path target = into.resolve(entry.getName()).normalize();
                assertTrue(
                        target.startsWith(into) && !entry.isDirectory(),
                        "unexpected entry " + entry.getName() + " in " + zip);
                Files.copy(in, target);
            }
        }
    }
}
