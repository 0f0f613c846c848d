package com.example.krabka.rsm.sample;

import io.krabka.spi.plugin.PluginProvider;
import io.krabka.testkit.PluginProviderConformance;
import java.nio.file.Path;
import java.util.Map;

/**
 * Krabka's provider kit against the pack tier's provider: its name, SPI version, description and settings, that the
 * kernel can discover it from the module's {@code provides}, and the instances it creates.
 */
class PackedProviderConformanceTest extends PluginProviderConformance {

    @Override
    protected Class<? extends PluginProvider<?>> providerClass() {
        return PackedRemoteStorageManagerProvider.class;
    }

    @Override
    protected Map<String, Object> requiredSettings(Path scratch) {
        return Map.of("dir", scratch.toString());
    }
}
