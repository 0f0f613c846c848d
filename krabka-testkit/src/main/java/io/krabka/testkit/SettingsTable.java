package io.krabka.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.plugin.ConfigKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * Keeps a plugin's documentation true to the keys its provider declares: the Markdown table in a section of a
 * document must have one row per key, in the declared order, whose first two cells are {@code `name`} and the key's
 * type in lower case ({@code string}, {@code int}, {@code long}, {@code boolean}, {@code password}, ...). A key
 * added, renamed, retyped or removed without its row fails the test.
 * {@snippet :
 * @Test
 * void theReadmeDocumentsEveryKey() throws IOException {
 *     SettingsTable.assertDocuments(Path.of("README.md"), "## Settings", provider.configKeys());
 * }
 * }
 */
public final class SettingsTable {
    private static final Pattern ROW = Pattern.compile("^\\| `([a-z0-9._-]+)` \\| ([a-z]+) \\|", Pattern.MULTILINE);

    private SettingsTable() {}

    /**
     * Asserts that the section of {@code document} that starts at the line {@code heading} (up to the next heading
     * of its level) documents exactly {@code keys}.
     */
    public static void assertDocuments(Path document, String heading, List<ConfigKey> keys) throws IOException {
        assertTrue(heading.matches("#+ .+"), "not a Markdown heading: " + heading);
        String text = "\n" + Files.readString(document);
        int start = text.indexOf("\n" + heading + "\n");
        assertTrue(start >= 0, document + " has no line \"" + heading + "\"");
        String level = heading.substring(0, heading.indexOf(' ') + 1);
        int end = text.indexOf("\n" + level, start + 1);
        String section = text.substring(start, end < 0 ? text.length() : end);
        List<String> documented = ROW.matcher(section)
                .results()
                .map(row -> row.group(1) + " " + row.group(2))
                .toList();
        assertEquals(
                keys.stream()
                        .map(key -> key.name() + " " + key.type().name().toLowerCase(Locale.ROOT))
                        .toList(),
                documented,
                "the settings under \"" + heading + "\" in " + document);
    }
}
