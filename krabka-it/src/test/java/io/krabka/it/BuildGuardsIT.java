package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The build guards its own style: a module of Krabka's build (a project inheriting {@code krabka-parent}) whose Java
 * code is not in the one style fails before it compiles, naming the file and the command that formats it; once
 * formatted it builds. The layering of the kernel's packages is held by the kernel's {@code KernelLayersTest}.
 *
 * <p>And the SPI's compatibility: a copy of {@code krabka-spi} with additions builds, one with an incompatible change
 * fails at {@code verify}, naming the change (japicmp against {@code krabka-spi/api-baseline}).
 */
class BuildGuardsIT {
    private static final String MISFORMATTED = """
            package probe;
            public final class Probe { public static int twice(int x) { return x*2; } }
            """;

    @TempDir
    Path work;

    private int runs;

    @Test
    void codeNotInTheOneStyleFailsTheBuildUntilFormatted() throws Exception {
        Path project = work.resolve("probe");
        Path source = project.resolve("src/main/java/probe/Probe.java");
        Files.createDirectories(source.getParent());
        Files.writeString(project.resolve("pom.xml"), """
                <project xmlns="http://maven.apache.org/POM/4.0.0">
                  <modelVersion>4.0.0</modelVersion>
                  <parent>
                    <groupId>io.krabka</groupId>
                    <artifactId>krabka-parent</artifactId>
                    <version>%s</version>
                    <relativePath/>
                  </parent>
                  <artifactId>format-probe</artifactId>
                </project>
                """.formatted(System.getProperty("krabka.version")));
        Files.writeString(source, MISFORMATTED);

        ToolRun misformatted = maven(project, "process-sources");
        assertNotEquals(0, misformatted.exitCode(), misformatted.describe());
        assertTrue(misformatted.out().contains("spotless-maven-plugin"), misformatted.describe());
        assertTrue(misformatted.out().contains("Probe.java"), misformatted.describe());
        assertTrue(misformatted.out().contains("spotless:apply"), misformatted.describe());

        ToolRun apply = maven(project, "spotless:apply");
        assertEquals(0, apply.exitCode(), apply.describe());
        assertNotEquals(MISFORMATTED, Files.readString(source));

        ToolRun formatted = maven(project, "process-sources");
        assertEquals(0, formatted.exitCode(), formatted.describe());
    }

    /**
     * Additions to the SPI pass its compatibility check: a new type, a default method on an interface plugins
     * implement, an abstract one on an interface the kernel implements. A class made final fails it.
     */
    @Test
    void anIncompatibleChangeOfTheSpiFailsTheBuildAndAdditionsPass() throws Exception {
        Path root = Path.of(System.getProperty("krabka.root"));
        Path spi = work.resolve("krabka-spi");
        Path sources = spi.resolve("src/main/java/io/krabka/spi");
        FileTrees.copy(root.resolve("krabka-spi/src/main"), spi.resolve("src/main"));
        FileTrees.copy(root.resolve("krabka-spi/api-baseline"), spi.resolve("api-baseline"));
        String pom = Files.readString(root.resolve("krabka-spi/pom.xml"));
        assertTrue(pom.contains("</version>\n  </parent>"), pom);
        // Outside the checkout, krabka-parent comes from the local repository.
        Files.writeString(
                spi.resolve("pom.xml"),
                pom.replace("</version>\n  </parent>", "</version>\n    <relativePath/>\n  </parent>"));

        edit(sources.resolve("storage/RemoteStorageManager.java"), "\n}\n", """

                    /** Added. */
                    default void added() {}
                }
                """);
        edit(sources.resolve("plugin/PluginMetrics.java"), "public interface PluginMetrics {\n", """
                public interface PluginMetrics {

                    /**
                     * Added.
                     *
                     * @return added
                     */
                    Counter added();
                """);
        Files.writeString(sources.resolve("plugin/Added.java"), """
                package io.krabka.spi.plugin;

                /** Added. */
                public interface Added {}
                """);
        ToolRun additions = maven(spi, "verify", "-DskipTests", "-Dmaven.javadoc.skip", "-Dmaven.source.skip");
        assertEquals(0, additions.exitCode(), additions.describe());
        assertTrue(additions.out().contains("japicmp"), additions.describe());

        // A plugin may subclass the exception; a final one breaks it.
        edit(
                sources.resolve("plugin/ConfigException.java"),
                "public class ConfigException",
                "public final class ConfigException");
        ToolRun changed = maven(spi, "verify", "-DskipTests", "-Dmaven.javadoc.skip", "-Dmaven.source.skip");
        assertNotEquals(0, changed.exitCode(), changed.describe());
        assertTrue(changed.out().contains("japicmp-maven-plugin"), changed.describe());
        assertTrue(
                changed.out().contains("There is at least one incompatibility: io.krabka.spi.plugin.ConfigException"),
                changed.describe());
    }

    private static void edit(Path file, String anchor, String replacement) throws Exception {
        String text = Files.readString(file);
        assertTrue(text.contains(anchor), file + " no longer holds " + anchor);
        Files.writeString(file, text.replace(anchor, replacement));
    }

    private ToolRun maven(Path project, String goal, String... options) throws Exception {
        Path root = Path.of(System.getProperty("krabka.root"));
        // A project that inherits krabka-parent compiles with Error Prone, which needs the checkout's JVM options.
        Path jvmConfig = project.resolve(".mvn/jvm.config");
        if (!Files.exists(jvmConfig)) {
            Files.createDirectories(jvmConfig.getParent());
            Files.copy(root.resolve(".mvn/jvm.config"), jvmConfig);
        }
        List<String> command = new ArrayList<>(List.of(
                root.resolve("mvnw").toString(),
                "-B",
                "-ntp",
                "-o",
                "-f",
                project.resolve("pom.xml").toString(),
                // krabka-parent's build helpers (build-tools/) are the checkout's.
                "-Dkrabka.root=" + root));
        String m2 = System.getProperty("krabka.m2");
        if (m2 != null) {
            command.add("-Dmaven.repo.local=" + m2);
        }
        command.addAll(List.of(options));
        command.add(goal);
        return ToolRun.run(
                work,
                "mvn-" + ++runs + "-" + goal.replace(':', '-'),
                command,
                Map.of("JAVA_HOME", System.getProperty("java.home")));
    }
}
