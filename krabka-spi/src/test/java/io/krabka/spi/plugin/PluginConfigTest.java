package io.krabka.spi.plugin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PluginConfigTest {
    private static final List<ConfigKey> KEYS = List.of(
            ConfigKey.required("dir", ConfigType.STRING, "Where segments go.")
                    .withValidator(ConfigValidator.nonBlank()),
            ConfigKey.optional("part.size", ConfigType.LONG, "16777216", "Multipart part size.")
                    .withValidator(ConfigValidator.atLeast(5 * 1024 * 1024)),
            ConfigKey.optional("delete.enable", ConfigType.BOOLEAN, true, "Whether deletes delete."),
            ConfigKey.optional("secret", ConfigType.PASSWORD, "", "A secret."),
            ConfigKey.optional("mode", ConfigType.STRING, "when_required", "Checksum mode.")
                    .withValidator(ConfigValidator.oneOf("when_required", "when_supported")),
            ConfigKey.optional("hosts", ConfigType.LIST, "", "Hosts."));

    @Test
    void parsesTextFillsDefaultsAndKeepsTypedValues() {
        PluginConfig config =
                PluginConfig.parse(KEYS, Map.of("dir", " /tmp/x ", "delete.enable", "FALSE", "hosts", "a, b"));
        assertEquals("/tmp/x", config.getString("dir"));
        assertEquals(16_777_216L, config.getLong("part.size"));
        assertFalse(config.getBoolean("delete.enable"));
        assertEquals(List.of("a", "b"), config.getList("hosts"));
        PluginConfig again = PluginConfig.parse(KEYS, config.values());
        assertEquals(config.values(), again.values());
    }

    @Test
    void errorsNameTheKeyAndWhy() {
        assertEquals(
                "missing required setting dir: Where segments go.",
                assertThrows(ConfigException.class, () -> PluginConfig.parse(KEYS, Map.of()))
                        .getMessage());
        assertEquals(
                "unknown setting dri; known: dir, part.size, delete.enable, secret, mode, hosts",
                assertThrows(ConfigException.class, () -> PluginConfig.parse(KEYS, Map.of("dri", "/x")))
                        .getMessage());
        assertEquals(
                "invalid value 1024 for part.size: must be at least 5242880",
                assertThrows(
                                ConfigException.class,
                                () -> PluginConfig.parse(KEYS, Map.of("dir", "/x", "part.size", "1024")))
                        .getMessage());
        assertEquals(
                "invalid value ten for part.size: expected long",
                assertThrows(
                                ConfigException.class,
                                () -> PluginConfig.parse(KEYS, Map.of("dir", "/x", "part.size", "ten")))
                        .getMessage());
        assertEquals(
                "invalid value maybe for delete.enable: expected boolean",
                assertThrows(
                                ConfigException.class,
                                () -> PluginConfig.parse(KEYS, Map.of("dir", "/x", "delete.enable", "maybe")))
                        .getMessage());
        assertEquals(
                "invalid value always for mode: must be one of when_required, when_supported",
                assertThrows(
                                ConfigException.class,
                                () -> PluginConfig.parse(KEYS, Map.of("dir", "/x", "mode", "always")))
                        .getMessage());
        assertEquals(
                "invalid value \"\" for dir: must not be empty",
                assertThrows(ConfigException.class, () -> PluginConfig.parse(KEYS, Map.of("dir", " ")))
                        .getMessage());
    }

    @Test
    void passwordsNeverShow() {
        PluginConfig config = PluginConfig.parse(KEYS, Map.of("dir", "/x", "secret", "hunter2"));
        assertFalse(config.toString().contains("hunter2"), config.toString());
        assertTrue(config.toString().contains("secret=[hidden]"));
        ConfigException e =
                assertThrows(ConfigException.class, () -> PluginConfig.parse(KEYS, Map.of("dir", "/x", "secret", 42)));
        assertFalse(e.getMessage().contains("42"));
    }

    @Test
    void aDefaultMustSatisfyItsOwnKey() {
        assertThrows(ConfigException.class, () -> ConfigKey.optional("n", ConfigType.INT, "x", "A number."));
        assertThrows(
                ConfigException.class,
                () -> ConfigKey.optional("n", ConfigType.INT, 1, "A number.")
                        .withValidator(ConfigValidator.atLeast(2)));
    }

    @Test
    void spiVersionsLoadSameMajorNotNewerMinor() {
        SpiVersion kernel = SpiVersion.parse("1.2");
        assertTrue(kernel.canLoad(SpiVersion.parse("1.0")));
        assertTrue(kernel.canLoad(SpiVersion.parse("1.2")));
        assertFalse(kernel.canLoad(SpiVersion.parse("1.3")));
        assertFalse(kernel.canLoad(SpiVersion.parse("0.9")));
        assertFalse(kernel.canLoad(SpiVersion.parse("2.0")));
        assertEquals(SpiVersion.parse(SpiVersion.CURRENT), SpiVersion.current());
        assertThrows(IllegalArgumentException.class, () -> SpiVersion.parse("1"));
        assertThrows(IllegalArgumentException.class, () -> SpiVersion.parse("1.x"));
    }
}
