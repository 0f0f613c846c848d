package io.krabka.kernel.metadata;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Kafka 4.4's own {@code MetadataVersion} judges Krabka's: the same levels, names, and lookups. */
class MetadataVersionTest {

    @Test
    void theLevelsAreKafkas() {
        List<String> kafka = Arrays.stream(org.apache.kafka.server.common.MetadataVersion.values())
                .map(v -> v.version() + " " + v.featureLevel() + " " + v.shortVersion() + " " + v.isProduction())
                .toList();
        List<String> ours = Arrays.stream(MetadataVersion.values())
                .map(v -> v.version() + " " + v.featureLevel() + " " + v.release() + " " + v.isProduction())
                .toList();

        assertEquals(kafka, ours);
        assertEquals(
                org.apache.kafka.server.common.MetadataVersion.LATEST_PRODUCTION.version(),
                MetadataVersion.LATEST_PRODUCTION.version());
        assertEquals(
                org.apache.kafka.server.common.MetadataVersion.MINIMUM_VERSION.version(),
                MetadataVersion.MINIMUM_VERSION.version());
        assertEquals(org.apache.kafka.server.common.MetadataVersion.FEATURE_NAME, MetadataVersion.FEATURE_NAME);
    }

    @Test
    void versionStringsAreReadAsKafkaReadsThem() {
        List<String> texts = new ArrayList<>();
        for (MetadataVersion version : MetadataVersion.values()) {
            texts.addAll(List.of(
                    version.version(),
                    version.release(),
                    version.release() + ".1",
                    version.version() + ".x",
                    version.release() + ".0-IV9"));
        }
        texts.addAll(List.of(
                "", "4", "4.", "4.4-IV3", "4.4-iv2", " 4.4", "4.4 ", "3.2", "3.3-IV2", "5.0", "a.b.c", ".", ".."));

        for (String text : texts) {
            String kafka;
            try {
                kafka = org.apache.kafka.server.common.MetadataVersion.fromVersionString(text, false)
                        .version();
            } catch (IllegalArgumentException e) {
                IllegalArgumentException ours = assertThrows(
                        IllegalArgumentException.class, () -> MetadataVersion.fromVersionString(text), text);
                assertEquals(e.getMessage(), ours.getMessage());
                continue;
            }
            assertEquals(kafka, MetadataVersion.fromVersionString(text).version(), text);
        }
    }

    @Test
    void featureLevelsAreLookedUpAsKafkaLooksThemUp() {
        for (short level = -1; level < 40; level++) {
            short featureLevel = level;
            String kafka;
            try {
                kafka = org.apache.kafka.server.common.MetadataVersion.fromFeatureLevel(level)
                        .version();
            } catch (IllegalArgumentException e) {
                IllegalArgumentException ours = assertThrows(
                        IllegalArgumentException.class, () -> MetadataVersion.fromFeatureLevel(featureLevel));
                assertEquals(e.getMessage(), ours.getMessage());
                continue;
            }
            assertEquals(kafka, MetadataVersion.fromFeatureLevel(level).version());
        }
    }
}
