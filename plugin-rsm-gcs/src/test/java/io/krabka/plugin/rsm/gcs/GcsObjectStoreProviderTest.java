package io.krabka.plugin.rsm.gcs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.ObjectStoreProvider;
import io.krabka.spi.plugin.PluginKind;
import io.krabka.spi.plugin.SpiVersion;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

class GcsObjectStoreProviderTest {
    private final GcsObjectStoreProvider provider = new GcsObjectStoreProvider();

    @Test
    void describesTheGcsStore() {
        assertEquals("gcs", provider.name());
        assertEquals(PluginKind.OBJECT_STORE, provider.kind());
        assertEquals(SpiVersion.CURRENT, provider.spiVersion());
        assertFalse(provider.description().isBlank());
        assertInstanceOf(GcsObjectStore.class, provider.create());
        assertNotSame(provider.create(), provider.create());
    }

    @Test
    void takesTheTiersKeysButThePrefix() {
        List<String> tier = new GcsRemoteStorageManagerProvider()
                .configKeys().stream()
                        .map(ConfigKey::name)
                        .filter(name -> !name.equals(GcsStorageConfig.PREFIX))
                        .toList();
        assertEquals(tier, provider.configKeys().stream().map(ConfigKey::name).toList());
    }

    @Test
    void anUnconfiguredStoreSaysSo() {
        assertThrows(IllegalStateException.class, () -> provider.create().location());
    }

    /** The isolated class loader finds providers only here: the jar ships without module-info. */
    @Test
    void theGeneratedServiceFileNamesTheStore() throws IOException {
        try (InputStream in = GcsObjectStoreProvider.class
                .getClassLoader()
                .getResourceAsStream("META-INF/services/" + ObjectStoreProvider.class.getName())) {
            assertNotNull(in, "no META-INF/services file for " + ObjectStoreProvider.class.getName());
            assertEquals(
                    GcsObjectStoreProvider.class.getName(),
                    new String(in.readAllBytes(), StandardCharsets.UTF_8).strip());
        }
    }
}
