package io.krabka.testkit;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.ConfigType;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.opentest4j.AssertionFailedError;

class SettingsTableTest {
    private static final List<ConfigKey> KEYS = List.of(
            ConfigKey.required("bucket", ConfigType.STRING, "The bucket."),
            ConfigKey.optional("part.size", ConfigType.LONG, 5L, "The part size."));

    @TempDir
    Path dir;

    private Path document(String settingsRows) throws IOException {
        return Files.writeString(dir.resolve("README.md"), """
                # A plugin

                ## Settings

                | key | type | default | what it does |
                |---|---|---|---|
                %s
                ## Another section

                | `elsewhere` | int | 1 | a table of another section |
                """.formatted(settingsRows));
    }

    @Test
    void aTableOfEveryKeyInOrderPassesWhateverOtherSectionsHold() throws IOException {
        Path readme = document("| `bucket` | string | required | x |\n| `part.size` | long | `5` | y |\n");
        SettingsTable.assertDocuments(readme, "## Settings", KEYS);
    }

    @Test
    void aSubsectionBelongsToItsSection() throws IOException {
        Path readme =
                document("| `bucket` | string | required | x |\n\n### More\n\n" + "| `part.size` | long | `5` | y |\n");
        SettingsTable.assertDocuments(readme, "## Settings", KEYS);
    }

    @Test
    void aMissingRenamedRetypedOrReorderedKeyFails() throws IOException {
        for (String rows : List.of(
                "| `bucket` | string | required | x |\n",
                "| `bucket` | string | required | x |\n| `part.bytes` | long | `5` | y |\n",
                "| `bucket` | string | required | x |\n| `part.size` | int | `5` | y |\n",
                "| `part.size` | long | `5` | y |\n| `bucket` | string | required | x |\n")) {
            Path readme = document(rows);
            AssertionFailedError e = assertThrows(
                    AssertionFailedError.class, () -> SettingsTable.assertDocuments(readme, "## Settings", KEYS), rows);
            assertTrue(e.getMessage().contains("## Settings"), e.getMessage());
        }
    }

    @Test
    void aMissingHeadingFails() throws IOException {
        Path readme = document("");
        assertThrows(AssertionFailedError.class, () -> SettingsTable.assertDocuments(readme, "## Configuration", KEYS));
    }
}
