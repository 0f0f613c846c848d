package io.krabka.jlink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Builds the full profile's image, every plugin of the distribution, and lists its plugins from it: a module-layer
 * plugin whose module requires the libraries beside it (s3) and a class-loader plugin whose jars cannot resolve as
 * modules (gcs) both link and load.
 */
class FullImageIT {
    private static final Path DIST = Path.of(System.getProperty("krabka.dist"));

    @TempDir
    static Path work;

    private static Path image;

    @BeforeAll
    static void buildImage() throws IOException, InterruptedException {
        image = work.resolve("images/full");
        ImageRun build = ImageRun.buildImage(work, DIST, "--profile", "full", "--output", image.toString());
        assertEquals(BuildImage.OK, build.exitCode(), build.err());
        image = image.toRealPath();
    }

    @Test
    void listsEveryPluginOfTheDistributionEachInItsIsolation() throws IOException, InterruptedException {
        ImageRun run = ImageRun.run(work, Map.of(), image.resolve("bin/krabka").toString(), "plugins", "--json");
        assertEquals(0, run.exitCode(), run.err());
        Map<String, JsonNode> plugins = new HashMap<>();
        new ObjectMapper()
                .readTree(run.out())
                .required("plugins")
                .forEach(p -> plugins.put(p.required("name").asText(), p));
        Set<String> folders;
        try (Stream<Path> entries = java.nio.file.Files.list(DIST.resolve("plugins"))) {
            folders = entries.map(p -> p.getFileName().toString()).collect(Collectors.toSet());
        }
        assertEquals(folders, plugins.keySet(), run.out());
        assertEquals("class-loader", plugins.get("gcs").required("isolation").asText(), run.out());
        assertEquals("module-layer", plugins.get("s3").required("isolation").asText(), run.out());
    }
}
