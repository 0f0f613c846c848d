package io.krabka.plugin.rsm.s3;

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
        SettingsTable.assertDocuments(Path.of("README.md"), "## Settings", S3StorageConfig.KEYS);
    }

    @Test
    void theConfigurationReferenceDocumentsEveryKey() throws IOException {
        SettingsTable.assertDocuments(
                Path.of("../docs/configuration.md"), "## Plugin `s3` (remote storage manager)", S3StorageConfig.KEYS);
    }

    @Test
    void theReadmeDocumentsEveryKeyOfTheStore() throws IOException {
        SettingsTable.assertDocuments(Path.of("README.md"), "### Store settings", S3StoreConfig.KEYS);
    }

    @Test
    void theConfigurationReferenceDocumentsEveryKeyOfTheStore() throws IOException {
        SettingsTable.assertDocuments(
                Path.of("../docs/configuration.md"), "## Plugin `s3` (object store)", S3StoreConfig.KEYS);
    }
}
