package io.krabka.kernel.metadata;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.server.common.FeatureVersion;
import org.junit.jupiter.api.Test;

/** Kafka 4.4's own production features judge Krabka's: the same names, levels, defaults and dependency checks. */
class FeatureTest {

    @Test
    void theFeaturesAndTheirLevelsAreKafkasProductionFeatures() {
        List<String> kafka = org.apache.kafka.server.common.Feature.PRODUCTION_FEATURES.stream()
                .map(f -> f.featureName() + " latest " + f.latestProduction() + " "
                        + Arrays.stream(f.featureVersions())
                                .map(v -> v.featureLevel() + "@" + v.bootstrapMetadataVersion()
                                        + new java.util.TreeMap<>(v.dependencies()))
                                .toList())
                .toList();
        List<String> ours = Arrays.stream(Feature.values())
                .map(f -> f.featureName() + " latest " + f.latestProduction() + " "
                        + f.levels().stream()
                                .map(v -> v.featureLevel() + "@" + v.bootstrapMetadataVersion()
                                        + new java.util.TreeMap<>(v.dependencies()))
                                .toList())
                .toList();

        assertEquals(kafka, ours);
        // Every level Kafka 4.4 defines for them is production ready.
        org.apache.kafka.server.common.Feature.PRODUCTION_FEATURES.forEach(
                f -> assertEquals(f.latestTesting(), f.latestProduction(), f.featureName()));
    }

    @Test
    void theDefaultLevelAtEveryMetadataVersionIsKafkas() {
        for (Feature feature : Feature.values()) {
            org.apache.kafka.server.common.Feature kafka =
                    org.apache.kafka.server.common.Feature.featureFromName(feature.featureName());
            for (MetadataVersion version : MetadataVersion.values()) {
                assertEquals(
                        kafka.defaultLevel(org.apache.kafka.server.common.MetadataVersion.fromFeatureLevel(
                                version.featureLevel())),
                        feature.defaultLevel(version),
                        feature + " at " + version);
            }
        }
    }

    @Test
    void levelsAndDependenciesAreCheckedAsKafkaChecksThem() {
        for (Feature feature : Feature.values()) {
            org.apache.kafka.server.common.Feature kafka =
                    org.apache.kafka.server.common.Feature.featureFromName(feature.featureName());
            for (short level = -1; level <= feature.latestProduction() + 1; level++) {
                short featureLevel = level;
                FeatureVersion kafkaVersion;
                try {
                    kafkaVersion = kafka.fromFeatureLevel(level, false);
                } catch (IllegalArgumentException e) {
                    assertEquals(
                            e.getMessage(),
                            assertThrows(IllegalArgumentException.class, () -> feature.fromFeatureLevel(featureLevel))
                                    .getMessage());
                    continue;
                }
                io.krabka.kernel.metadata.FeatureVersion ours = feature.fromFeatureLevel(level);
                for (MetadataVersion version : MetadataVersion.values()) {
                    Map<String, Short> levels =
                            new HashMap<>(Map.of(MetadataVersion.FEATURE_NAME, version.featureLevel()));
                    Optional<String> kafkaRefusal =
                            refusal(() -> org.apache.kafka.server.common.Feature.validateVersion(kafkaVersion, levels));
                    assertEquals(
                            kafkaRefusal,
                            refusal(() -> feature.validateDependencies(ours, levels)),
                            feature + "=" + level + " at " + version);
                }
            }
        }
    }

    @Test
    void featuresAreFoundByName() {
        assertEquals(Optional.of(Feature.GROUP_VERSION), Feature.fromName("group.version"));
        assertEquals(Optional.empty(), Feature.fromName("Group.version"));
        assertEquals(Optional.empty(), Feature.fromName(MetadataVersion.FEATURE_NAME));
    }

    private static Optional<String> refusal(Runnable check) {
        try {
            check.run();
            return Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.of(e.getMessage());
        }
    }
}
