package io.krabka.plugin.rsm.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.objectstore.SegmentObjectKeys;
import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.storage.RemoteStorageException;
import java.net.URI;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class S3StorageConfigTest {
    private static final long MIB = 1 << 20;

    private static Map<String, Object> with(Object... keysAndValues) {
        Map<String, Object> settings = new HashMap<>(Map.of("bucket", "tier"));
        for (int i = 0; i < keysAndValues.length; i += 2) {
            settings.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return settings;
    }

    @Test
    void defaultsAreAwsWithTheSdksChainsAndSinglePutsBelow100MiB() {
        S3StorageConfig config = S3StorageConfig.parse(with());
        assertEquals("tier", config.store().bucket());
        assertEquals(new SegmentObjectKeys(""), config.keys());
        assertEquals(Optional.empty(), config.store().region());
        assertEquals(Optional.empty(), config.store().endpoint());
        assertEquals(Optional.empty(), config.store().credentials());
        assertFalse(config.store().pathStyleAccess());
        assertFalse(config.store().checksumWhenRequired());
        assertEquals(3, config.store().retries());
        assertEquals(Duration.ofMinutes(5), config.store().apiCallTimeout());
        assertEquals(Duration.ofMinutes(2), config.store().attemptTimeout());
        assertEquals(new MultipartPolicy(100 * MIB, 16 * MIB, 4), config.store().multipart());
    }

    @Test
    void everyKeyIsRead() {
        S3StorageConfig config = S3StorageConfig.parse(with(
                "prefix",
                "/kafka/tier/",
                "region",
                "eu-west-1",
                "endpoint",
                "http://127.0.0.1:7480",
                "path.style.access",
                "true",
                "access.key.id",
                "id",
                "secret.access.key",
                "secret",
                "storage.class",
                "STANDARD_IA",
                "api.call.timeout.ms",
                "1000",
                "api.call.attempt.timeout.ms",
                "500",
                "retries",
                "0",
                "checksum.calculation",
                "when_required",
                "multipart.threshold.bytes",
                6 * MIB,
                "multipart.part.size.bytes",
                5 * MIB,
                "multipart.concurrency",
                2));
        assertEquals(new SegmentObjectKeys("kafka/tier"), config.keys());
        assertEquals(Optional.of("eu-west-1"), config.store().region());
        assertEquals(
                Optional.of(URI.create("http://127.0.0.1:7480")), config.store().endpoint());
        assertTrue(config.store().pathStyleAccess());
        assertEquals(
                Optional.of(new S3StoreConfig.StaticCredentials("id", "secret")),
                config.store().credentials());
        assertFalse(config.store().credentials().orElseThrow().toString().contains("secret,"));
        assertEquals(Optional.of("STANDARD_IA"), config.store().storageClass());
        assertEquals(Duration.ofSeconds(1), config.store().apiCallTimeout());
        assertEquals(Duration.ofMillis(500), config.store().attemptTimeout());
        assertEquals(0, config.store().retries());
        assertTrue(config.store().checksumWhenRequired());
        assertEquals(new MultipartPolicy(6 * MIB, 5 * MIB, 2), config.store().multipart());
    }

    @Test
    void badValuesAreRefusedNamingTheKey() {
        assertKeyRefused("bucket", with("bucket", " "));
        assertKeyRefused("multipart.part.size.bytes", with("multipart.part.size.bytes", 5 * MIB - 1));
        assertKeyRefused("multipart.threshold.bytes", with("multipart.threshold.bytes", 0));
        assertKeyRefused("checksum.calculation", with("checksum.calculation", "always"));
        assertKeyRefused("endpoint", with("endpoint", "ftp://host"));
        assertKeyRefused("endpoint", with("endpoint", "http://"));
        assertKeyRefused("secret.access.key", with("access.key.id", "id"));
        assertKeyRefused("access.key.id", with("secret.access.key", "s"));
        assertKeyRefused("prefix", with("prefix", "a//b"));
        assertKeyRefused("retries", with("retries", -1));
        assertKeyRefused("multipart.concurrency", with("multipart.concurrency", 0));
        assertKeyRefused("nonsense", with("nonsense", "1"));
    }

    @Test
    void aFileThatNeedsMoreThan10000PartsIsRefused() throws RemoteStorageException {
        MultipartPolicy policy = new MultipartPolicy(5 * MIB, 5 * MIB, 1);
        assertEquals(10_000, policy.partCount(10_000 * 5 * MIB));
        assertEquals(1, policy.partCount(0));
        RemoteStorageException e =
                assertThrows(RemoteStorageException.class, () -> policy.partCount(10_000 * 5 * MIB + 1));
        assertTrue(e.getMessage().contains("multipart.part.size.bytes"), e.getMessage());
        assertTrue(policy.usesParts(5 * MIB));
        assertFalse(policy.usesParts(5 * MIB - 1));
    }

    private static void assertKeyRefused(String key, Map<String, Object> settings) {
        ConfigException e = assertThrows(ConfigException.class, () -> S3StorageConfig.parse(settings), key);
        assertTrue(e.getMessage().contains(key), e.getMessage());
    }
}
