package io.krabka.plugin.rsm.gcs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.plugin.ConfigException;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GcsStorageConfigTest {

    @Test
    void defaultsNeedOnlyTheBucket() {
        GcsStorageConfig config = GcsStorageConfig.parse(Map.of("bucket", "b"));
        GcsStoreConfig store = config.store();
        assertEquals("b", store.bucket());
        assertEquals("", config.keys().prefix());
        assertEquals(Optional.empty(), store.projectId());
        assertEquals(Optional.empty(), store.endpoint());
        assertInstanceOf(GcsStoreConfig.Credentials.ApplicationDefault.class, store.credentials());
        assertEquals(8 << 20, store.chunkSize());
        assertEquals(8 << 20, store.resumableThreshold());
        assertEquals(Duration.ofMinutes(1), store.requestTimeout());
        assertEquals(Duration.ofMinutes(5), store.totalTimeout());
        assertEquals(5, store.retries());
    }

    @Test
    void everyKeyIsRead(@TempDir Path dir) throws IOException {
        Path key = Files.writeString(dir.resolve("sa.json"), "{}");
        Map<String, Object> raw = new HashMap<>(Map.of(
                "bucket",
                "b",
                "prefix",
                "/kafka/tier/",
                "project.id",
                "p",
                "endpoint",
                "http://127.0.0.1:4443",
                "credentials.path",
                key.toString()));
        raw.putAll(Map.of(
                "resumable.upload.chunk.size",
                "524288",
                "resumable.threshold.bytes",
                "1048576",
                "request.timeout.ms",
                "1000",
                "total.timeout.ms",
                "2000",
                "retries",
                "0"));
        GcsStorageConfig tier = GcsStorageConfig.parse(raw);
        assertEquals("kafka/tier", tier.keys().prefix());
        raw.remove("prefix");
        GcsStoreConfig config = GcsStoreConfig.parse(raw);
        assertEquals(config, tier.store());
        assertEquals(Optional.of("p"), config.projectId());
        assertEquals(Optional.of(URI.create("http://127.0.0.1:4443")), config.endpoint());
        assertEquals(new GcsStoreConfig.Credentials.ServiceAccountFile(key.toAbsolutePath()), config.credentials());
        assertEquals(512 * 1024, config.chunkSize());
        assertEquals(1 << 20, config.resumableThreshold());
        assertEquals(Duration.ofSeconds(1), config.requestTimeout());
        assertEquals(Duration.ofSeconds(2), config.totalTimeout());
        assertEquals(0, config.retries());
        ConfigException prefix =
                assertThrows(ConfigException.class, () -> GcsStoreConfig.parse(Map.of("bucket", "b", "prefix", "p")));
        assertTrue(prefix.getMessage().contains("prefix"), "the store takes no prefix: " + prefix.getMessage());
    }

    @Test
    void aChunkSizeOffGcsGranularityIsRefused() {
        ConfigException e = assertThrows(
                ConfigException.class,
                () -> GcsStorageConfig.parse(Map.of("bucket", "b", "resumable.upload.chunk.size", 300_000)));
        assertTrue(
                e.getMessage().contains("resumable.upload.chunk.size")
                        && e.getMessage().contains("256 KiB"),
                e.getMessage());
    }

    @Test
    void credentialsAreOneKindOrTheOther(@TempDir Path dir) throws IOException {
        Path key = Files.writeString(dir.resolve("sa.json"), "{}");
        assertInstanceOf(
                GcsStoreConfig.Credentials.None.class,
                GcsStoreConfig.parse(Map.of("bucket", "b", "no.credentials", true))
                        .credentials());
        ConfigException both = assertThrows(
                ConfigException.class,
                () -> GcsStorageConfig.parse(
                        Map.of("bucket", "b", "no.credentials", true, "credentials.path", key.toString())));
        assertTrue(both.getMessage().contains("credentials.path"), both.getMessage());
        ConfigException missing = assertThrows(
                ConfigException.class,
                () -> GcsStorageConfig.parse(Map.of(
                        "bucket",
                        "b",
                        "credentials.path",
                        dir.resolve("none.json").toString())));
        assertTrue(missing.getMessage().contains("no readable file"), missing.getMessage());
    }

    @Test
    void badValuesNameTheirKey() {
        assertThrows(ConfigException.class, () -> GcsStorageConfig.parse(Map.of()));
        assertThrows(ConfigException.class, () -> GcsStorageConfig.parse(Map.of("bucket", " ")));
        assertThrows(ConfigException.class, () -> GcsStorageConfig.parse(Map.of("bucket", "b", "unknown", "x")));
        for (String endpoint : new String[] {"ftp://h", "http://h/path", "not a url"}) {
            ConfigException e = assertThrows(
                    ConfigException.class, () -> GcsStorageConfig.parse(Map.of("bucket", "b", "endpoint", endpoint)));
            assertTrue(e.getMessage().contains("endpoint"), e.getMessage());
        }
        ConfigException prefix = assertThrows(
                ConfigException.class, () -> GcsStorageConfig.parse(Map.of("bucket", "b", "prefix", "a//b")));
        assertTrue(prefix.getMessage().contains("prefix"), prefix.getMessage());
    }
}
