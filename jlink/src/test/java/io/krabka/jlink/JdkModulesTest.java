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
    void declaredRequiresCountAndStaticOnesDoNot(@TempDir Path dir) throws IOException, URISyntaxException {
        Path lib = Files.createDirectories(dir.resolve("lib"));
        for (Class<?> type : List.of(ObjectMapper.class, JsonFactory.class, JsonProperty.class)) {
            Path jar = Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
            Files.copy(jar, lib.resolve(jar.getFileName()));
        }
        // jackson-databind requires java.logging, which jdeps does not report; java.sql, java.xml and
        // java.desktop it requires static, so they are left out.
        assertEquals(Set.of("java.base", "java.logging"), new JdkModules(Tool.find("jdeps")).required(lib, List.of()));
    }

    @Test
    void eachPluginFolderCounts(@TempDir Path dir) throws IOException, URISyntaxException {
        Path lib = Files.createDirectories(dir.resolve("lib"));
        Path plugin = Files.createDirectories(dir.resolve("plugins/json"));
        Path core = Path.of(JsonFactory.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Files.copy(core, lib.resolve(core.getFileName()));
        for (Class<?> type : List.of(ObjectMapper.class, JsonProperty.class)) {
            Path jar = Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI());
            Files.copy(jar, plugin.resolve(jar.getFileName()));
        }
        JdkModules modules = new JdkModules(Tool.find("jdeps"));
        assertEquals(Set.of("java.base"), modules.required(lib, List.of()));
        assertEquals(Set.of("java.base", "java.logging"), modules.required(lib, List.of(plugin)));
    }
}
