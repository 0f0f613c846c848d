package io.krabka.plugin.rsm.gcs;

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
        SettingsTable.assertDocuments(Path.of("README.md"), "## Settings", GcsStorageConfig.KEYS);
    }

    @Test
    void theReadmeDocumentsEveryKeyOfTheObjectStore() throws IOException {
        SettingsTable.assertDocuments(Path.of("README.md"), "## Object store settings", GcsStoreConfig.KEYS);
    }

    @Test
    void theConfigurationReferenceDocumentsEveryKeyOfTheObjectStore() throws IOException {
        SettingsTable.assertDocuments(
                Path.of("../docs/configuration.md"), "## Plugin `gcs` (object store)", GcsStoreConfig.KEYS);
    }

    @Test
    void theConfigurationReferenceDocumentsEveryKey() throws IOException {
        SettingsTable.assertDocuments(
                Path.of("../docs/configuration.md"), "## Plugin `gcs` (remote storage manager)", GcsStorageConfig.KEYS);
    }
}
