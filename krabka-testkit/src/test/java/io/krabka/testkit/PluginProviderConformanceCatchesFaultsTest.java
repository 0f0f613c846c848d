package io.krabka.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.ConfigType;
import io.krabka.spi.plugin.Monitorable;
import io.krabka.spi.plugin.PluginKind;
import io.krabka.spi.plugin.PluginMetrics;
import io.krabka.spi.plugin.PluginProvider;
import io.krabka.spi.plugin.RemoteStorageManagerProvider;
import io.krabka.spi.plugin.SpiVersion;
import io.krabka.spi.storage.RemoteStorageManager;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The provider kit passes a sound provider and fails each fault on its own rule. */
class PluginProviderConformanceCatchesFaultsTest {
    private static final String DISCOVERABLE = "required_isDiscoverableFromItsModuleOrServiceFile";

    /** A provider that breaks no rule; its module (the kit's, in these tests) does not declare it, though. */
    public static class Sound implements RemoteStorageManagerProvider {
        @Override
        public String name() {
            return "probe";
        }

        @Override
        public List<String> aliases() {
            return List.of("com.example.ProbeStorage");
        }

        @Override
        public PluginKind kind() {
            return PluginKind.REMOTE_STORAGE_MANAGER;
        }

        @Override
        public String spiVersion() {
            return SpiVersion.CURRENT;
        }

        @Override
        public List<ConfigKey> configKeys() {
            return List.of(
                    ConfigKey.required("dir", ConfigType.STRING, "Where segments go."),
                    ConfigKey.optional("parts", ConfigType.INT, 3, "How many parts a segment is cut into."));
        }

        @Override
        public RemoteStorageManager create() {
            return new ReferenceRemoteStorageManager(Path.of("unused"));
        }

        @Override
        public String description() {
            return "Probes the provider kit.";
        }
    }

    public static class BadName extends Sound {
        @Override
        public String name() {
            return "Probe_Storage";
        }
    }

    public static class AliasIsTheName extends Sound {
        @Override
        public List<String> aliases() {
            return List.of("probe");
        }
    }

    public static class FutureSpi extends Sound {
        @Override
        public String spiVersion() {
            return "9.0";
        }
    }

    public static class TwoLines extends Sound {
        @Override
        public String description() {
            return "Probes\nthe kit.";
        }
    }

    public static class UndocumentedSetting extends Sound {
        @Override
        public List<ConfigKey> configKeys() {
            return List.of(ConfigKey.optional("dir", ConfigType.STRING, "", " "));
        }
    }

    public static class SameInstance extends Sound {
        private final RemoteStorageManager only = new ReferenceRemoteStorageManager(Path.of("unused"));

        @Override
        public RemoteStorageManager create() {
            return only;
        }
    }

    public static class ClosesOnlyWhenConfigured extends Sound {
        @Override
        public RemoteStorageManager create() {
            return new ForwardingRemoteStorageManager(new ReferenceRemoteStorageManager(Path.of("unused"))) {
                private boolean configured;

                @Override
                public void configure(Map<String, ?> configs) {
                    configured = true;
                }

                @Override
                public void close() {
                    if (!configured) {
                        throw new IllegalStateException("not configured");
                    }
                }
            };
        }
    }

    public static class BadMetricName extends Sound {
        @Override
        public RemoteStorageManager create() {
            return new MonitorableReference();
        }
    }

    /** Publishes a metric under a name the kernel refuses. */
    static final class MonitorableReference extends ForwardingRemoteStorageManager implements Monitorable {
        MonitorableReference() {
            super(new ReferenceRemoteStorageManager(Path.of("unused")));
        }

        @Override
        public void withPluginMetrics(PluginMetrics metrics) {
            metrics.timer("copy-time");
        }
    }

    public static class NoPublicConstructor extends Sound {
        public NoPublicConstructor(String name) {}
    }

    abstract static class Kit extends PluginProviderConformance {
        @Override
        protected Map<String, Object> requiredSettings(Path scratch) {
            return Map.of("dir", scratch.toString());
        }
    }

    public static class SoundKit extends Kit {
        @Override
        protected Class<? extends PluginProvider<?>> providerClass() {
            return Sound.class;
        }
    }

    public static class BadNameKit extends Kit {
        @Override
        protected Class<? extends PluginProvider<?>> providerClass() {
            return BadName.class;
        }
    }

    public static class AliasIsTheNameKit extends Kit {
        @Override
        protected Class<? extends PluginProvider<?>> providerClass() {
            return AliasIsTheName.class;
        }
    }

    public static class FutureSpiKit extends Kit {
        @Override
        protected Class<? extends PluginProvider<?>> providerClass() {
            return FutureSpi.class;
        }
    }

    public static class TwoLinesKit extends Kit {
        @Override
        protected Class<? extends PluginProvider<?>> providerClass() {
            return TwoLines.class;
        }
    }

    public static class UndocumentedSettingKit extends Kit {
        @Override
        protected Class<? extends PluginProvider<?>> providerClass() {
            return UndocumentedSetting.class;
        }
    }

    public static class MissingRequiredSettingKit extends PluginProviderConformance {
        @Override
        protected Class<? extends PluginProvider<?>> providerClass() {
            return Sound.class;
        }
    }

    public static class SameInstanceKit extends Kit {
        @Override
        protected Class<? extends PluginProvider<?>> providerClass() {
            return SameInstance.class;
        }
    }

    public static class ClosesOnlyWhenConfiguredKit extends Kit {
        @Override
        protected Class<? extends PluginProvider<?>> providerClass() {
            return ClosesOnlyWhenConfigured.class;
        }
    }

    public static class BadMetricNameKit extends Kit {
        @Override
        protected Class<? extends PluginProvider<?>> providerClass() {
            return BadMetricName.class;
        }
    }

    public static class NoPublicConstructorKit extends Kit {
        @Override
        protected Class<? extends PluginProvider<?>> providerClass() {
            return NoPublicConstructor.class;
        }
    }

    @Test
    void aSoundProviderPassesEveryRuleButTheDeclarationItsModuleLacks() {
        KitRun run = KitRun.of(SoundKit.class);

        run.expectFailed(DISCOVERABLE);
        assertTrue(
                run.messages()
                        .get(DISCOVERABLE)
                        .startsWith("module io.krabka.testkit does not declare: provides"
                                + " io.krabka.spi.plugin.RemoteStorageManagerProvider with " + Sound.class.getName()
                                + ";"),
                run::toString);
    }

    @Test
    void eachFaultFailsItsRule() {
        expectFailed(BadNameKit.class, "required_nameFollowsTheNamingRule", "name() 'Probe_Storage'");
        expectFailed(AliasIsTheNameKit.class, "required_aliasesAreDistinctAndNoneIsTheName", "alias 'probe'");
        expectFailed(FutureSpiKit.class, "required_spiVersionIsOneThisKrabkaLoads", "spiVersion() 9.0");
        expectFailed(TwoLinesKit.class, "required_descriptionIsOneLine", "description() is not one line");
        expectFailed(
                UndocumentedSettingKit.class,
                "required_settingsAreDistinctAndDocumented",
                "setting dir has no documentation");
        expectFailed(
                MissingRequiredSettingKit.class,
                Map.of(
                        "required_requiredSettingsAndDefaultsParse", "setting dir has no default",
                        "required_anInstanceConfiguresWithTheParsedSettingsAndCloses", "missing required setting dir"));
        expectFailed(
                SameInstanceKit.class,
                "required_createGivesANewInstanceOfItsKindEachTime",
                "create() returned the same instance twice");
        expectFailed(
                ClosesOnlyWhenConfiguredKit.class,
                "required_anInstanceClosesWithoutBeingConfigured",
                "close() of an instance never configured");
        expectFailed(
                BadMetricNameKit.class,
                "optional_aMonitorableInstancePublishesMetricsTheKernelAccepts",
                "not a metric name (upper camel case");
    }

    @Test
    void aProviderWithoutAPublicNoArgumentConstructorFailsEveryRule() {
        KitRun run = KitRun.of(NoPublicConstructorKit.class);

        assertEquals(KitRun.rules(PluginProviderConformance.class), run.with(KitRun.Verdict.FAILED));
        assertTrue(
                run.messages()
                        .get("required_providerHasAPublicNoArgumentConstructor")
                        .endsWith("has no public no-argument constructor"),
                run::toString);
    }

    private static void expectFailed(Class<?> kit, String rule, String messageStart) {
        expectFailed(kit, Map.of(rule, messageStart));
    }

    /** Exactly these rules fail (and the declaration, as for every provider here), each with its message. */
    private static void expectFailed(Class<?> kit, Map<String, String> messageStarts) {
        KitRun run = KitRun.of(kit);
        Set<String> failed = new TreeSet<>(messageStarts.keySet());
        failed.add(DISCOVERABLE);
        assertEquals(failed, run.with(KitRun.Verdict.FAILED), run::toString);
        messageStarts.forEach((rule, start) -> assertTrue(
                run.messages().get(rule).startsWith(start),
                rule + " said: " + run.messages().get(rule)));
    }
}
