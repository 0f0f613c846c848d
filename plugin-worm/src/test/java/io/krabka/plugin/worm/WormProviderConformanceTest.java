package io.krabka.plugin.worm;

import io.krabka.spi.plugin.PluginProvider;
import io.krabka.testkit.PluginProviderConformance;
import java.nio.file.Path;
import java.util.Map;

/** The provider kit over the write-once archive's provider; the kernel creates its instances over a store. */
class WormProviderConformanceTest extends PluginProviderConformance {
    @Override
    protected Class<? extends PluginProvider<?>> providerClass() {
        return WormRemoteStorageManagerProvider.class;
    }

    @Override
    protected Map<String, Object> requiredSettings(Path scratch) {
        return Map.of("store", "local");
    }
}
