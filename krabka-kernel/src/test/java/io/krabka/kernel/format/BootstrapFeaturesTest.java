package io.krabka.kernel.format;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.krabka.kernel.metadata.FeatureLevelRecord;
import io.krabka.kernel.metadata.MetadataVersion;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.kafka.metadata.storage.Formatter;
import org.apache.kafka.raft.DynamicVoters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Kafka 4.4's own format tool ({@code Formatter}, run here on a temporary directory with a dynamic quorum, as
 * {@code kafka-storage format --standalone} runs it) judges the feature levels: for each release version and set
 * of features, the same feature records, or the same refusal with the same message.
 */
class BootstrapFeaturesTest {

    @TempDir
    Path dir;

    static Stream<Arguments> settings() {
        List<Arguments> settings = new ArrayList<>();
        // Every release a cluster can start at, by full name and by release, with its default features.
        Arrays.stream(MetadataVersion.values())
                .filter(MetadataVersion::isProduction)
                .forEach(version -> {
                    settings.add(Arguments.of(Optional.of(version.version()), List.of()));
                    settings.add(Arguments.of(Optional.of(version.release()), List.of()));
                });
        settings.add(Arguments.of(Optional.empty(), List.of()));
        settings.add(Arguments.of(Optional.empty(), List.of("metadata.version=20")));
        settings.add(Arguments.of(Optional.empty(), List.of("metadata.version=34")));
        settings.add(Arguments.of(Optional.empty(), List.of("metadata.version=35")));
        settings.add(Arguments.of(Optional.empty(), List.of("metadata.version=6")));
        settings.add(Arguments.of(Optional.of("4.4-IV2"), List.of("metadata.version=33")));
        settings.add(Arguments.of(Optional.empty(), List.of("zzz.version=1", "aaa.version=1")));
        settings.add(Arguments.of(Optional.empty(), List.of("test.feature.version=1")));
        settings.add(Arguments.of(Optional.empty(), List.of("group.version=2")));
        settings.add(Arguments.of(Optional.empty(), List.of("group.version=-1")));
        settings.add(Arguments.of(Optional.empty(), List.of("kraft.version=0")));
        settings.add(Arguments.of(Optional.empty(), List.of("kraft.version=1")));
        settings.add(Arguments.of(Optional.empty(), List.of("kraft.version=2")));
        settings.add(Arguments.of(Optional.of("4.0-IV0"), List.of("eligible.leader.replicas.version=1")));
        settings.add(Arguments.of(Optional.of("4.0-IV1"), List.of("eligible.leader.replicas.version=1")));
        settings.add(Arguments.of(
                Optional.of("3.3-IV3"), List.of("streams.version=1", "share.version=2", "group.version=1")));
        settings.add(Arguments.of(Optional.of("4.2-IV0"), List.of("share.version=2")));
        settings.add(
                Arguments.of(Optional.empty(), List.of("transaction.version=0", "group.version=0", "share.version=1")));
        settings.add(
                Arguments.of(Optional.empty(), List.of("eligible.leader.replicas.version=0", "streams.version=0")));
        return settings.stream();
    }

    @ParameterizedTest(name = "--release-version {0} --feature {1}")
    @MethodSource("settings")
    void theLevelsOrTheRefusalAreKafkas(Optional<String> release, List<String> featureArgs) throws Exception {
        String expected;
        try {
            expected = kafkaRecords(release, featureArgs);
        } catch (RuntimeException kafkaRefused) {
            FormatException refused =
                    assertThrows(FormatException.class, () -> BootstrapFeatures.resolve(release, featureArgs));
            assertEquals(kafkaRefused.getMessage(), refused.getMessage());
            assertEquals(FormatException.Kind.INVALID_FEATURES, refused.kind());
            return;
        }
        BootstrapFeatures ours = BootstrapFeatures.resolve(release, featureArgs);
        assertEquals(
                expected,
                ours.records().stream()
                        .map(r -> r.name() + "=" + r.featureLevel())
                        .toList()
                        .toString());
        assertEquals(BootstrapFeatures.KRAFT_VERSION_1, ours.kraftVersion());
    }

    @Test
    void theDefaultIsKafka44sNewestProductionLevelWithEveryFeatureAtItsDefault() throws FormatException {
        BootstrapFeatures features = BootstrapFeatures.resolve(Optional.empty(), List.of());

        assertEquals(MetadataVersion.IBP_4_4_IV2, features.metadataVersion());
        assertEquals(
                "{eligible.leader.replicas.version=1, group.version=1, kraft.version=1, metadata.version=33, "
                        + "share.version=2, streams.version=1, transaction.version=2}",
                features.levels().toString());
        assertEquals(
                List.of(
                        new FeatureLevelRecord("metadata.version", (short) 33),
                        new FeatureLevelRecord("eligible.leader.replicas.version", (short) 1),
                        new FeatureLevelRecord("group.version", (short) 1),
                        new FeatureLevelRecord("share.version", (short) 2),
                        new FeatureLevelRecord("streams.version", (short) 1),
                        new FeatureLevelRecord("transaction.version", (short) 2)),
                features.records());
    }

    @Test
    void aLaterSettingOfAFeatureWinsAndSpacesAroundNamesAndLevelsDoNotCount() throws FormatException {
        BootstrapFeatures features = BootstrapFeatures.resolve(
                Optional.empty(), List.of("group.version=1", " group.version = +0 ", "share.version=01"));

        assertEquals((short) 0, features.levels().get("group.version"));
        assertEquals((short) 1, features.levels().get("share.version"));
    }

    @Test
    void settingsThatDoNotParseAreRefusedWithKafkasMessages() {
        assertRefused("Can't parse feature=level string group.version: equals sign not found.", "group.version");
        assertRefused(
                "Can't parse feature=level string group.version=x: unable to parse x as a short.", "group.version=x");
        assertRefused(
                "Can't parse feature=level string group.version=: unable to parse  as a short.", "group.version=");
        assertRefused("Can't parse feature=level string a=b=c: unable to parse b=c as a short.", "a=b=c");
        assertRefused(
                "Can't parse feature=level string group.version=70000: unable to parse 70000 as a short.",
                "group.version=70000");
        assertRefused(
                "Unsupported feature: . Supported features are: eligible.leader.replicas.version, group.version, "
                        + "kraft.version, share.version, streams.version, transaction.version",
                "=1");
    }

    @Test
    void anUnknownOrUnstableReleaseIsRefusedWithKafkasMessage() {
        String supported =
                "Supported metadata.version are: 3.3-IV3, 3.4-IV0, 3.5-IV0, 3.5-IV1, 3.5-IV2, 3.6-IV0, 3.6-IV1, "
                        + "3.6-IV2, 3.7-IV0, 3.7-IV1, 3.7-IV2, 3.7-IV3, 3.7-IV4, 3.8-IV0, 3.9-IV0, 4.0-IV0, 4.0-IV1, 4.0-IV2, "
                        + "4.0-IV3, 4.1-IV0, 4.1-IV1, 4.2-IV0, 4.2-IV1, 4.3-IV0, 4.4-IV0, 4.4-IV1, 4.4-IV2";
        for (String release : List.of("4.5-IV0", "4.5", "3.2-IV0", "4.4-iv1", " 4.4", "")) {
            FormatException refused = assertThrows(
                    FormatException.class, () -> BootstrapFeatures.resolve(Optional.of(release), List.of()));
            assertEquals("Unknown metadata.version '" + release + "'. " + supported, refused.getMessage());
            assertEquals(FormatException.Kind.INVALID_FEATURES, refused.kind());
        }
    }

    private static void assertRefused(String message, String featureArg) {
        FormatException refused = assertThrows(
                FormatException.class, () -> BootstrapFeatures.resolve(Optional.empty(), List.of(featureArg)));
        assertEquals(message, refused.getMessage());
        assertEquals(FormatException.Kind.INVALID_FEATURES, refused.kind());
    }

    // Kafka's bootstrap records as "[name=level, ...]", or its refusal thrown.
    private String kafkaRecords(Optional<String> release, List<String> featureArgs) throws Exception {
        Path logDir = java.nio.file.Files.createTempDirectory(dir, "kafka");
        Formatter formatter = new Formatter()
                .setPrintStream(new PrintStream(OutputStream.nullOutputStream()))
                .setNodeId(1)
                .setClusterId("MkU3OEVBNTcwNTJENDM2Qk")
                .setDirectories(List.of(logDir.toString()))
                .setMetadataLogDirectory(logDir.toString())
                .setControllerListenerName("CONTROLLER")
                .setHasDynamicQuorum(true)
                .setInitialControllers(DynamicVoters.parse("1@127.0.0.1:9093:0XYIQhIGSoePQhGC5Avl4w"));
        release.ifPresent(version -> formatter.setReleaseVersion(
                org.apache.kafka.server.common.MetadataVersion.fromVersionString(version, false)));
        for (String arg : featureArgs) {
            String[] nameAndLevel = arg.split("=");
            formatter.setFeatureLevel(nameAndLevel[0], Short.parseShort(nameAndLevel[1]));
        }
        formatter.run();
        return formatter.bootstrapMetadata().records().stream()
                .map(record -> (org.apache.kafka.common.metadata.FeatureLevelRecord) record.message())
                .map(record -> record.name() + "=" + record.featureLevel())
                .toList()
                .toString();
    }
}
