package io.krabka.plugin.rlmm.inmemory;

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
        SettingsTable.assertDocuments(
                Path.of("README.md"), "## Configuration", InMemoryRemoteLogMetadataManagerConfig.KEYS);
    }

    @Test
    void theConfigurationReferenceDocumentsEveryKey() throws IOException {
        SettingsTable.assertDocuments(
                Path.of("../docs/configuration.md"),
                "## Plugin `inmemory` (remote log metadata manager)",
                InMemoryRemoteLogMetadataManagerConfig.KEYS);
    }
}
