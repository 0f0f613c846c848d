package io.krabka.plugin.rsm.gcs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.krabka.spi.plugin.ConfigKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Keeps the settings table of the module's README true to the keys the provider declares, in their order. */
class ReadmeTest {
    /** Surefire runs in the module's directory. */
    private static final Path README = Path.of("README.md");
    private static final Pattern ROW = Pattern.compile("^\\| `([a-z.]+)` \\| ([a-z]+) \\| ([^|]+) \\|", Pattern.MULTILINE);

    @Test
    void everyKeyHasOneRowWithItsType() throws IOException {
        String readme = Files.readString(README);
        String settings = readme.substring(readme.indexOf("## Settings"), readme.indexOf("## Guarantees"));
        Matcher rows = ROW.matcher(settings);
        List<String> documented = rows.results().map(r -> r.group(1) + " " + r.group(2)).toList();
        assertEquals(GcsStorageConfig.KEYS.stream().map(ReadmeTest::row).toList(), documented);
    }

    private static String row(ConfigKey key) {
        return key.name() + " " + key.type().name().toLowerCase(java.util.Locale.ROOT);
    }
}
