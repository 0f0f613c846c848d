package io.krabka.plugin.rlmm.inmemory;

import io.krabka.spi.plugin.PluginProvider;
import io.krabka.testkit.PluginProviderConformance;

/** The provider kit over the in-memory metadata manager's provider. */
class InMemoryProviderConformanceTest extends PluginProviderConformance {
    @Override
    protected Class<? extends PluginProvider<?>> providerClass() {
        return InMemoryRemoteLogMetadataManagerProvider.class;
    }
}
