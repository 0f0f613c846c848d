package io.krabka.plugin.rsm.local;

import io.krabka.spi.plugin.PluginProvider;
import io.krabka.testkit.PluginProviderConformance;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Nested;

/** The provider kit over both of the local plugin's providers. */
class LocalProvidersConformanceTest {

    @Nested
    class RemoteStorageManager extends PluginProviderConformance {
        @Override
        protected Class<? extends PluginProvider<?>> providerClass() {
            return LocalRemoteStorageManagerProvider.class;
        }

        @Override
        protected Map<String, Object> requiredSettings(Path scratch) {
            return Map.of("dir", scratch.toString());
        }
    }

    @Nested
    class ObjectStore extends PluginProviderConformance {
        @Override
        protected Class<? extends PluginProvider<?>> providerClass() {
            return LocalObjectStoreProvider.class;
        }

        @Override
        protected Map<String, Object> requiredSettings(Path scratch) {
            return Map.of("dir", scratch.toString());
        }
    }
}
