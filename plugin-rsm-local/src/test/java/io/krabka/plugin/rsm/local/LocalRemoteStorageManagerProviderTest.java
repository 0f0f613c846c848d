package io.krabka.plugin.rsm.local;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;

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

class LocalRemoteStorageManagerProviderTest {
    private final LocalRemoteStorageManagerProvider provider = new LocalRemoteStorageManagerProvider();

    @Test
    void describesTheLocalPlugin() {
        assertEquals("local", provider.name());
        assertEquals(PluginKind.REMOTE_STORAGE_MANAGER, provider.kind());
        assertEquals(SpiVersion.CURRENT, provider.spiVersion());
        assertFalse(provider.description().isBlank());
        assertInstanceOf(LocalRemoteStorageManager.class, provider.create());
        assertNotSame(provider.create(), provider.create());
    }

    @Test
    void declaresKafkasKeysWithTheirDefaults() {
        Map<String, ConfigKey> keys =
                provider.configKeys().stream().collect(Collectors.toMap(ConfigKey::name, key -> key));
        assertEquals(
                List.of("dir", "tiered.storage.dir", "delete.enable", "fsync.enable", "delete.on.close"),
                provider.configKeys().stream().map(ConfigKey::name).toList());
        assertEquals(
                Optional.of(""), keys.get("dir").defaultValue(), "required unless a broker gives tiered.storage.dir");
        assertEquals(Optional.of(true), keys.get("delete.enable").defaultValue());
        assertEquals(Optional.of(true), keys.get("fsync.enable").defaultValue());
        assertEquals(Optional.of(false), keys.get("delete.on.close").defaultValue(), "Kafka's default");
    }

    @Test
    void isAlsoSelectedByTheNameOfKafkasLocalTieredStorage() {
        assertEquals(List.of("org.apache.kafka.server.log.remote.storage.LocalTieredStorage"), provider.aliases());
    }

    @Test
    void theObjectStoreHasNoDeleteOnClose() {
        assertEquals(
                List.of("dir", "tiered.storage.dir", "delete.enable", "fsync.enable"),
                new LocalObjectStoreProvider()
                        .configKeys().stream().map(ConfigKey::name).toList());
    }

    @Test
    void isDeclaredWithProvidesInModuleInfo() {
        ModuleDescriptor descriptor =
                LocalRemoteStorageManagerProvider.class.getModule().getDescriptor();
        assertEquals("io.krabka.plugin.rsm.local", descriptor.name());
        assertEquals(
                Map.of(
                        RemoteStorageManagerProvider.class.getName(),
                        List.of(LocalRemoteStorageManagerProvider.class.getName()),
                        ObjectStoreProvider.class.getName(),
                        List.of(LocalObjectStoreProvider.class.getName())),
                descriptor.provides().stream()
                        .collect(Collectors.toMap(
                                ModuleDescriptor.Provides::service, ModuleDescriptor.Provides::providers)));
    }
}
