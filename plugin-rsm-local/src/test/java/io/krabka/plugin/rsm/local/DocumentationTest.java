package io.krabka.plugin.rsm.local;

import io.krabka.testkit.SettingsTable;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * Keeps the settings tables of the module's README and of the configuration reference true to the declared keys
 * (surefire runs in the module's directory).
 */
class DocumentationTest {
    @Test
    void theReadmeDocumentsEveryKey() throws IOException {
        SettingsTable.assertDocuments(Path.of("README.md"), "## Settings", LocalStorageConfig.KEYS);
    }

    @Test
    void theConfigurationReferenceDocumentsEveryKey() throws IOException {
        SettingsTable.assertDocuments(
                Path.of("../docs/configuration.md"),
                "## Plugin `local` (remote storage manager)",
                LocalStorageConfig.KEYS);
    }
}
