package io.krabka.plugin.rsm.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.krabka.spi.objectstore.ObjectStore;
import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.PluginKind;
import io.krabka.spi.plugin.SpiVersion;
import java.io.IOException;
import java.util.Map;
import org.junit.jupiter.api.Test;

class S3ObjectStoreProviderTest {
    private final S3ObjectStoreProvider provider = new S3ObjectStoreProvider();

    @Test
    void describesTheS3Store() {
        assertEquals("s3", provider.name());
        assertEquals(PluginKind.OBJECT_STORE, provider.kind());
        assertEquals(SpiVersion.CURRENT, provider.spiVersion());
        assertFalse(provider.description().isBlank());
        assertNotSame(provider.create(), provider.create());
        for (ConfigKey key : provider.configKeys()) {
            assertEquals(key.name().equals("bucket"), key.isRequired(), key.name());
        }
    }

    @Test
    void aStoreIsCreatedUnconfiguredAndConfiguredOnce() throws IOException {
        ObjectStore store = provider.create();
        assertInstanceOf(S3ObjectStore.class, store);
        assertThrows(IllegalStateException.class, store::location);
        store.configure(Map.of("bucket", "b", "region", "eu-west-1"));
        assertEquals("s3://b", store.location());
        assertThrows(IllegalStateException.class, () -> store.configure(Map.of("bucket", "c", "region", "eu-west-1")));
        store.close();
    }
}
