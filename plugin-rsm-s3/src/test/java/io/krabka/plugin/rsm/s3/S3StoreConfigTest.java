package io.krabka.plugin.rsm.s3;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.plugin.ConfigKey;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The object store's settings: the tier's but its prefix, and http endpoints only when allowed. */
class S3StoreConfigTest {

    @Test
    void theStoreTakesTheTiersKeysButThePrefixAndAddsAllowHttp() {
        List<String> tier = S3StorageConfig.KEYS.stream()
                .map(ConfigKey::name)
                .filter(k -> !k.equals("prefix"))
                .toList();
        List<String> store = S3StoreConfig.KEYS.stream().map(ConfigKey::name).toList();
        assertEquals(tier, store.subList(0, store.size() - 1));
        assertEquals("allow.http", store.getLast());
    }

    @Test
    void anHttpEndpointIsRefusedUnlessAllowed() {
        ConfigException e = assertThrows(
                ConfigException.class,
                () -> S3StoreConfig.parse(Map.of("bucket", "b", "endpoint", "http://127.0.0.1:7480")));
        assertTrue(e.getMessage().contains("endpoint") && e.getMessage().contains("allow.http"), e.getMessage());
        assertEquals(
                Optional.of(URI.create("http://127.0.0.1:7480")),
                S3StoreConfig.parse(Map.of("bucket", "b", "endpoint", "http://127.0.0.1:7480", "allow.http", "true"))
                        .endpoint());
        assertEquals(
                Optional.of(URI.create("https://s3.example")),
                S3StoreConfig.parse(Map.of("bucket", "b", "endpoint", "https://s3.example"))
                        .endpoint());
    }

    @Test
    void theTierKeepsTakingHttpEndpoints() {
        assertEquals(
                Optional.of(URI.create("http://127.0.0.1:7480")),
                S3StorageConfig.parse(Map.of("bucket", "b", "endpoint", "http://127.0.0.1:7480"))
                        .store()
                        .endpoint());
    }

    @Test
    void aPrefixIsNoSettingOfTheStore() {
        ConfigException e =
                assertThrows(ConfigException.class, () -> S3StoreConfig.parse(Map.of("bucket", "b", "prefix", "p")));
        assertTrue(e.getMessage().contains("prefix"), e.getMessage());
    }
}
