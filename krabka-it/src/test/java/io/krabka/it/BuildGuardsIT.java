package io.krabka.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The build guards its own style: a module of Krabka's build (a project inheriting {@code krabka-parent}) whose Java
 * code is not in the one style fails before it compiles, naming the file and the command that formats it; once
 * formatted it builds. The layering of the kernel's packages is held by the kernel's {@code KernelLayersTest}.
 */
class BuildGuardsIT {
    private static final String MISFORMATTED = """
            package probe;
            public final class Probe { public static int twice(int x) { return x*2; } }
            """;

    @TempDir
    Path work;

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

    private ToolRun maven(Path project, String goal) throws Exception {
        Path root = Path.of(System.getProperty("krabka.root"));
        return ToolRun.run(
                work,
                "mvn-" + goal.replace(':', '-'),
                List.of(
                        root.resolve("mvnw").toString(),
                        "-B",
                        "-ntp",
                        "-o",
                        "-f",
                        project.resolve("pom.xml").toString(),
                        goal),
                Map.of("JAVA_HOME", System.getProperty("java.home")));
    }
}
