package io.krabka.plugin.rsm.s3;

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
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

class S3RemoteStorageManagerProviderTest {
    private final S3RemoteStorageManagerProvider provider = new S3RemoteStorageManagerProvider();

    @Test
    void describesTheS3Plugin() {
        assertEquals("s3", provider.name());
        assertEquals(PluginKind.REMOTE_STORAGE_MANAGER, provider.kind());
        assertEquals(SpiVersion.CURRENT, provider.spiVersion());
        assertFalse(provider.description().isBlank());
        assertNotSame(provider.create(), provider.create());
    }

    @Test
    void declaresEveryKeyWithDocumentationAndOnlyTheBucketRequired() {
        assertEquals(
                List.of(
                        "bucket",
                        "prefix",
                        "region",
                        "endpoint",
                        "path.style.access",
                        "access.key.id",
                        "secret.access.key",
                        "storage.class",
                        "api.call.timeout.ms",
                        "api.call.attempt.timeout.ms",
                        "retries",
                        "checksum.calculation",
                        "multipart.threshold.bytes",
                        "multipart.part.size.bytes",
                        "multipart.concurrency"),
                provider.configKeys().stream().map(ConfigKey::name).toList());
        for (ConfigKey key : provider.configKeys()) {
            assertEquals(key.name().equals("bucket"), key.isRequired(), key.name());
            assertFalse(key.documentation().isBlank(), key.name());
        }
    }

    @Test
    void isDeclaredWithProvidesInModuleInfo() {
        ModuleDescriptor descriptor =
                S3RemoteStorageManagerProvider.class.getModule().getDescriptor();
        assertEquals("io.krabka.plugin.rsm.s3", descriptor.name());
        assertEquals(
                Map.of(
                        RemoteStorageManagerProvider.class.getName(),
                        List.of(S3RemoteStorageManagerProvider.class.getName()),
                        ObjectStoreProvider.class.getName(),
                        List.of(S3ObjectStoreProvider.class.getName())),
                descriptor.provides().stream()
                        .collect(Collectors.toMap(
                                ModuleDescriptor.Provides::service, ModuleDescriptor.Provides::providers)));
        assertTrue(descriptor.requires().stream().anyMatch(r -> r.name().equals("io.krabka.objectstore")));
    }
}
