package io.krabka.kernel.tiered;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.plugin.ConfigKey;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Kafka 4.4's broker keys of tiered storage, their defaults, parsing and errors. */
class RemoteLogManagerConfigTest {

    @Test
    void everyKeyOfKafkasRemoteLogManagerConfigIsReadWithKafkasDefault() {
        assertEquals(
                List.of(
                        "remote.log.storage.system.enable",
                        "remote.log.storage.manager.class.name",
                        "remote.log.storage.manager.class.path",
                        "remote.log.storage.manager.impl.prefix",
                        "remote.log.metadata.manager.class.name",
                        "remote.log.metadata.manager.class.path",
                        "remote.log.metadata.manager.impl.prefix",
                        "remote.log.metadata.manager.listener.name",
                        "remote.log.metadata.custom.metadata.max.bytes",
                        "remote.log.index.file.cache.total.size.bytes",
                        "remote.log.manager.thread.pool.size",
                        "remote.log.manager.copier.thread.pool.size",
                        "remote.log.manager.expiration.thread.pool.size",
                        "remote.log.manager.task.interval.ms",
                        "remote.log.manager.task.retry.backoff.ms",
                        "remote.log.manager.task.retry.backoff.max.ms",
                        "remote.log.manager.task.retry.jitter",
                        "remote.log.reader.threads",
                        "remote.log.reader.max.pending.tasks",
                        "remote.log.manager.copy.max.bytes.per.second",
                        "remote.log.manager.copy.quota.window.num",
                        "remote.log.manager.copy.quota.window.size.seconds",
                        "remote.log.manager.fetch.max.bytes.per.second",
                        "remote.log.manager.fetch.quota.window.num",
                        "remote.log.manager.fetch.quota.window.size.seconds",
                        "remote.fetch.max.wait.ms",
                        "remote.list.offsets.request.timeout.ms"),
                RemoteLogManagerConfig.KEYS.stream().map(ConfigKey::name).toList());

        assertEquals(
                new RemoteLogManagerConfig(
                        false,
                        Optional.empty(),
                        Optional.empty(),
                        "rsm.config.",
                        "topic",
                        Optional.empty(),
                        "rlmm.config.",
                        Optional.empty(),
                        128,
                        1024L * 1024 * 1024,
                        2,
                        10,
                        10,
                        30_000,
                        500,
                        30_000,
                        0.2,
                        10,
                        100,
                        Long.MAX_VALUE,
                        11,
                        1,
                        Long.MAX_VALUE,
                        11,
                        1,
                        500,
                        30_000),
                RemoteLogManagerConfig.fromProps(Map.of()));
    }

    @Test
    void valuesAreParsedFromText() {
        RemoteLogManagerConfig config = RemoteLogManagerConfig.fromProps(Map.of(
                "remote.log.storage.system.enable",
                "true",
                "remote.log.storage.manager.class.name",
                "s3",
                "remote.log.metadata.manager.class.name",
                "com.example.Rlmm",
                "remote.log.metadata.manager.class.path",
                "  ",
                "remote.log.manager.task.interval.ms",
                "250",
                "remote.log.manager.task.retry.jitter",
                "0.5",
                "remote.log.manager.copy.max.bytes.per.second",
                "1048576"));

        assertTrue(config.remoteLogStorageSystemEnable());
        assertEquals(Optional.of("s3"), config.remoteStorageManagerClassName());
        assertEquals("com.example.Rlmm", config.remoteLogMetadataManagerClassName());
        assertEquals(Optional.empty(), config.remoteLogMetadataManagerClassPath(), "blank is Kafka's null");
        assertEquals(250, config.remoteLogManagerTaskIntervalMs());
        assertEquals(0.5, config.remoteLogManagerTaskRetryJitter());
        assertEquals(1_048_576, config.remoteLogManagerCopyMaxBytesPerSecond());
    }

    @Test
    void badValuesAreTypedErrorsNamingTheKey() {
        assertError("remote.log.manager.task.retry.jitter", Map.of("remote.log.manager.task.retry.jitter", "0.6"));
        assertError("remote.log.manager.thread.pool.size", Map.of("remote.log.manager.thread.pool.size", "0"));
        assertError("remote.log.manager.task.interval.ms", Map.of("remote.log.manager.task.interval.ms", "soon"));
        assertError(
                "remote.log.metadata.custom.metadata.max.bytes",
                Map.of("remote.log.metadata.custom.metadata.max.bytes", "-1"));
        assertError(
                "remote.log.manager.task.retry.backoff.max.ms",
                Map.of(
                        "remote.log.manager.task.retry.backoff.ms",
                        "1000",
                        "remote.log.manager.task.retry.backoff.max.ms",
                        "10"));
        assertError("remote.log.storage.manager.class.name", Map.of("remote.log.storage.system.enable", "true"));
        assertFalse(
                RemoteLogManagerConfig.fromProps(Map.of("remote.log.storage.system.enable", "false"))
                        .remoteLogStorageSystemEnable(),
                "no storage manager is needed while tiering is off");
    }

    @Test
    void aPluginGetsTheSettingsUnderItsPrefixWithoutIt() {
        assertEquals(
                Map.of("dir", "/tier", "fsync.enable", "false"),
                RemoteLogManagerConfig.withoutPrefix(
                        Map.of(
                                "rsm.config.dir",
                                "/tier",
                                "rsm.config.fsync.enable",
                                "false",
                                "rlmm.config.snapshot.path",
                                "/s",
                                "rsm.config.",
                                "ignored",
                                "log.dirs",
                                "/data"),
                        "rsm.config."));
    }

    private static void assertError(String key, Map<String, String> props) {
        ConfigException e = assertThrows(ConfigException.class, () -> RemoteLogManagerConfig.fromProps(props));
        assertTrue(e.getMessage().contains(key), e.getMessage());
    }
}
