package io.krabka.plugin.worm;

import io.krabka.testkit.SettingsTable;
import java.io.IOException;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** Keeps the README's and the configuration reference's settings tables true to the declared keys. */
class DocumentationTest {
    @Test
    void theReadmeDocumentsEveryKey() throws IOException {
        SettingsTable.assertDocuments(Path.of("README.md"), "## Settings", WormConfig.KEYS);
    }

    @Test
    void theConfigurationReferenceDocumentsEveryKey() throws IOException {
        SettingsTable.assertDocuments(
                Path.of("../docs/configuration.md"), "## Plugin `worm` (remote storage manager)", WormConfig.KEYS);
    }
}
