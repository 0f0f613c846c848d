package io.krabka.kernel;

import static com.tngtech.archunit.library.Architectures.layeredArchitecture;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.library.Architectures.LayeredArchitecture;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The kernel's packages form layers, each using only those below it: {@code record} and the leaves
 * ({@code scheduler}, {@code metrics}, {@code plugin}, {@code fetch}) at the bottom, then {@code metadata},
 * {@code security} (the listeners' TLS and SASL, and the authorizer and SCRAM credentials over the metadata's ACLs and
 * users), {@code log}, {@code errors} (the one mapping of failures to Kafka's error codes), {@code format}, {@code controller},
 * {@code coordinator} (what the group and transaction coordinators share), {@code group}, {@code tiered}, {@code replica},
 * {@code transaction}, {@code network},
 * {@code restore}, and {@code broker}, which puts them together. A sub-package ({@code log.checkpoint},
 * {@code restore.bound}) belongs to its parent's layer. A new dependency upwards, or a cycle, fails the build here;
 * to allow a dependency on purpose, add it to {@link #LAYERS} and say why in the change.
 */
class KernelLayersTest {
    private static final Path MAIN_CLASSES = Path.of("target", "classes");
    private static final Path TEST_CLASSES = Path.of("target", "test-classes");
    private static final String[] PACKAGES = {
        "record",
        "scheduler",
        "metrics",
        "plugin",
        "fetch",
        "metadata",
        "security",
        "log",
        "errors",
        "format",
        "controller",
        "coordinator",
        "group",
        "tiered",
        "replica",
        "transaction",
        "network",
        "restore",
        "broker"
    };

    /** Which layer may use which: the whole of the kernel's package graph. */
    static final ArchRule LAYERS = layers().whereLayer("record")
            .mayNotAccessAnyLayer()
            .whereLayer("scheduler")
            .mayNotAccessAnyLayer()
            .whereLayer("metrics")
            .mayNotAccessAnyLayer()
            .whereLayer("plugin")
            .mayNotAccessAnyLayer()
            .whereLayer("fetch")
            .mayNotAccessAnyLayer()
            .whereLayer("metadata")
            .mayOnlyAccessLayers("record")
            .whereLayer("security")
            .mayOnlyAccessLayers("record", "metadata")
            .whereLayer("log")
            .mayOnlyAccessLayers("record", "scheduler")
            .whereLayer("errors")
            .mayOnlyAccessLayers("record", "log")
            .whereLayer("coordinator")
            .mayOnlyAccessLayers("record", "scheduler", "metadata", "log", "errors", "controller")
            .whereLayer("format")
            .mayOnlyAccessLayers("record", "metadata", "log")
            .whereLayer("controller")
            .mayOnlyAccessLayers("record", "scheduler", "metadata", "log", "format")
            .whereLayer("group")
            .mayOnlyAccessLayers("record", "scheduler", "metadata", "log", "errors", "coordinator", "controller")
            .whereLayer("tiered")
            .mayOnlyAccessLayers("record", "scheduler", "metrics", "metadata", "log")
            .whereLayer("replica")
            .mayOnlyAccessLayers("record", "scheduler", "metadata", "log", "errors", "tiered")
            .whereLayer("transaction")
            .mayOnlyAccessLayers(
                    "record", "scheduler", "metadata", "log", "errors", "controller", "coordinator", "group", "replica")
            .whereLayer("network")
            .mayOnlyAccessLayers("log", "metadata", "security")
            .whereLayer("restore")
            .mayOnlyAccessLayers("record", "plugin", "metadata", "log", "format", "controller")
            .whereLayer("broker")
            .mayOnlyAccessLayers(Arrays.stream(PACKAGES)
                    .filter(name -> !name.equals("broker"))
                    .toArray(String[]::new));

    /** No cycle between two packages, sub-packages counted in their parent. */
    static final ArchRule NO_CYCLES =
            slices().matching("io.krabka.kernel.(*)..").should().beFreeOfCycles();

    private static LayeredArchitecture layers() {
        LayeredArchitecture layers = layeredArchitecture().consideringOnlyDependenciesInLayers();
        for (String name : PACKAGES) {
            layers = layers.layer(name).definedBy("io.krabka.kernel." + name + "..");
        }
        return layers;
    }

    @Test
    void thePackagesKeepTheirLayersAndHaveNoCycles() {
        JavaClasses kernel = new ClassFileImporter().importPath(MAIN_CLASSES);

        LAYERS.check(kernel);
        NO_CYCLES.check(kernel);
    }

    @Test
    void everyPackageIsInALayer() throws Exception {
        try (Stream<Path> dirs = Files.list(MAIN_CLASSES.resolve("io/krabka/kernel"))) {
            List<String> packages = dirs.filter(Files::isDirectory)
                    .map(dir -> dir.getFileName().toString())
                    .toList();
            assertTrue(
                    Arrays.asList(PACKAGES).containsAll(packages),
                    "a package without a layer in " + Arrays.toString(PACKAGES) + ": " + packages);
        }
    }

    @Test
    void everyPackageSaysWhatItHolds() throws Exception {
        Path sources = Path.of("src", "main", "java", "io", "krabka", "kernel");
        try (Stream<Path> dirs = Files.walk(sources)) {
            List<Path> without = dirs.filter(Files::isDirectory)
                    .filter(dir -> hasJava(dir) && !Files.exists(dir.resolve("package-info.java")))
                    .toList();
            assertEquals(List.of(), without, "packages without a package-info.java");
        }
    }

    private static boolean hasJava(Path dir) {
        try (Stream<Path> files = Files.list(dir)) {
            return files.anyMatch(file -> file.toString().endsWith(".java"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void aDependencyUpwardsFailsTheRule() {
        JavaClasses kernel = new ClassFileImporter().importPath(MAIN_CLASSES);
        JavaClasses violating = new ClassFileImporter()
                .importPaths(MAIN_CLASSES, TEST_CLASSES.resolve("io/krabka/kernel/log/LayerViolation.class"));

        assertFalse(LAYERS.evaluate(kernel).hasViolation());
        EvaluationResult result = LAYERS.evaluate(violating);
        assertTrue(result.hasViolation(), "log using broker went unseen");
        assertTrue(
                result.getFailureReport().toString().contains("io.krabka.kernel.log.LayerViolation"),
                result.getFailureReport().toString());
    }
}
