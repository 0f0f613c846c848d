package io.krabka.jlink;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Runs the real jdeps over real jars: Jackson's, which the kernel's module path holds. */
class JdkModulesTest {

    @Test
    void eachPluginCountsAndDeclaredRequiresDoTooButNotStaticOnes(@TempDir Path dir)
            throws IOException, URISyntaxException {
        Path lib = Files.createDirectories(dir.resolve("lib"));
        Path plugin = Files.createDirectories(dir.resolve("plugins/json"));
        copyJarOf(JsonFactory.class, lib);
        copyJarOf(ObjectMapper.class, plugin);
        copyJarOf(JsonProperty.class, plugin);
        JdkModules modules = new JdkModules(Tool.find("jdeps"));
        assertEquals(Set.of("java.base"), modules.required(List.of(lib), List.of()));
        // jackson-databind requires java.logging, which jdeps does not report; java.sql, java.xml and
        // java.desktop it requires static, so they are left out.
        assertEquals(Set.of("java.base", "java.logging"), modules.required(List.of(lib), List.of(plugin)));
    }

    private static void copyJarOf(Class<?> type, Path folder) throws IOException, URISyntaxException {
        Path jar =
                Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
        Files.copy(jar, folder.resolve(jar.getFileName()));
    }
}
