package io.krabka.plugin.rsm.gcs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.ObjectStoreProvider;
import io.krabka.spi.plugin.PluginKind;
import io.krabka.spi.plugin.RemoteStorageManagerProvider;
import io.krabka.spi.plugin.SpiVersion;
import java.lang.module.ModuleDescriptor;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class GcsRemoteStorageManagerProviderTest {
    private final GcsRemoteStorageManagerProvider provider = new GcsRemoteStorageManagerProvider();

    @Test
    void describesTheGcsPlugin() {
        assertEquals("gcs", provider.name());
        assertEquals(PluginKind.REMOTE_STORAGE_MANAGER, provider.kind());
        assertEquals(SpiVersion.CURRENT, provider.spiVersion());
        assertFalse(provider.description().isBlank());
        assertNotSame(provider.create(), provider.create());
    }

    @Test
    void declaresItsKeysWithDefaultsAndDocumentation() {
        Map<String, ConfigKey> keys = provider.configKeys().stream().collect(Collectors.toMap(ConfigKey::name, k -> k));
        assertEquals(
                List.of(
                        "bucket",
                        "prefix",
                        "project.id",
                        "endpoint",
                        "credentials.path",
                        "no.credentials",
                        "resumable.upload.chunk.size",
                        "resumable.threshold.bytes",
                        "request.timeout.ms",
                        "total.timeout.ms",
                        "retries"),
                provider.configKeys().stream().map(ConfigKey::name).toList());
        assertTrue(keys.get("bucket").isRequired());
        assertEquals(
                Optional.of(8 << 20), keys.get("resumable.upload.chunk.size").defaultValue());
        assertEquals(Optional.of(8 << 20), keys.get("resumable.threshold.bytes").defaultValue());
        assertEquals(Optional.of(false), keys.get("no.credentials").defaultValue());
        provider.configKeys().forEach(k -> assertFalse(k.documentation().isBlank(), k.name()));
    }

    @Test
    void isDeclaredWithProvidesInModuleInfo() {
        ModuleDescriptor descriptor =
                GcsRemoteStorageManagerProvider.class.getModule().getDescriptor();
        assertEquals("io.krabka.plugin.rsm.gcs", descriptor.name());
        assertEquals(
                Map.of(
                        RemoteStorageManagerProvider.class.getName(),
                        List.of(GcsRemoteStorageManagerProvider.class.getName()),
                        ObjectStoreProvider.class.getName(),
                        List.of(GcsObjectStoreProvider.class.getName())),
                descriptor.provides().stream()
                        .collect(Collectors.toMap(
                                ModuleDescriptor.Provides::service, ModuleDescriptor.Provides::providers)));
    }
}
