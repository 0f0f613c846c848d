package io.krabka.kernel.metadata;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The levels of Kafka's {@code metadata.version} feature that Kafka 4.4 knows, in order: the version of the
 * cluster metadata's records and of the inter-broker protocol. Every level up to {@link #LATEST_PRODUCTION} is
 * production ready; the levels after it are Kafka's unstable ones, which {@code krabka format} refuses as Kafka
 * does without {@code unstable.feature.versions.enable}.
 */
public enum MetadataVersion {
    IBP_3_3_IV3(7, "3.3", "IV3"),
    IBP_3_4_IV0(8, "3.4", "IV0"),
    IBP_3_5_IV0(9, "3.5", "IV0"),
    IBP_3_5_IV1(10, "3.5", "IV1"),
    IBP_3_5_IV2(11, "3.5", "IV2"),
    IBP_3_6_IV0(12, "3.6", "IV0"),
    IBP_3_6_IV1(13, "3.6", "IV1"),
    IBP_3_6_IV2(14, "3.6", "IV2"),
    IBP_3_7_IV0(15, "3.7", "IV0"),
    IBP_3_7_IV1(16, "3.7", "IV1"),
    IBP_3_7_IV2(17, "3.7", "IV2"),
    IBP_3_7_IV3(18, "3.7", "IV3"),
    IBP_3_7_IV4(19, "3.7", "IV4"),
    IBP_3_8_IV0(20, "3.8", "IV0"),
    IBP_3_9_IV0(21, "3.9", "IV0"),
    IBP_4_0_IV0(22, "4.0", "IV0"),
    IBP_4_0_IV1(23, "4.0", "IV1"),
    IBP_4_0_IV2(24, "4.0", "IV2"),
    IBP_4_0_IV3(25, "4.0", "IV3"),
    IBP_4_1_IV0(26, "4.1", "IV0"),
    IBP_4_1_IV1(27, "4.1", "IV1"),
    IBP_4_2_IV0(28, "4.2", "IV0"),
    IBP_4_2_IV1(29, "4.2", "IV1"),
    IBP_4_3_IV0(30, "4.3", "IV0"),
    IBP_4_4_IV0(31, "4.4", "IV0"),
    IBP_4_4_IV1(32, "4.4", "IV1"),
    IBP_4_4_IV2(33, "4.4", "IV2"),
    IBP_4_5_IV0(34, "4.5", "IV0");

    /** The feature's name. */
    public static final String FEATURE_NAME = "metadata.version";

    /** The oldest level Kafka 4 runs. */
    public static final MetadataVersion MINIMUM_VERSION = IBP_3_3_IV3;

    /** The newest production-ready level, Kafka 4.4's default. */
    public static final MetadataVersion LATEST_PRODUCTION = IBP_4_4_IV2;

    // Kafka's lookup: each "3.5-IV1" and, for each release, "3.5" naming that release's newest production level.
    private static final Map<String, MetadataVersion> BY_VERSION_STRING = versionStrings();

    private final short featureLevel;
    private final String release;
    private final String version;

    MetadataVersion(int featureLevel, String release, String subVersion) {
        this.featureLevel = (short) featureLevel;
        this.release = release;
        this.version = release + "-" + subVersion;
    }

    /** The level recorded in the cluster's {@code FeatureLevelRecord}. */
    public short featureLevel() {
        return featureLevel;
    }

    /** The Kafka release it came with, such as {@code 4.4}. */
    public String release() {
        return release;
    }

    /** Its name, such as {@code 4.4-IV2}. */
    public String version() {
        return version;
    }

    /** Kafka's {@code partitionRecordVersion}: 2 with ELR (4.0-IV1+), 1 with directories (3.7-IV2+), else 0. */
    public short partitionRecordVersion() {
        if (compareTo(IBP_4_0_IV1) >= 0) {
            return 2;
        }
        return (short) (compareTo(IBP_3_7_IV2) >= 0 ? 1 : 0);
    }

    /** Whether Kafka 4.4 formats and runs it without enabling unstable versions. */
    public boolean isProduction() {
        return compareTo(LATEST_PRODUCTION) <= 0;
    }

    @Override
    public String toString() {
        return version;
    }

    /**
     * The production level a {@code --release-version} names, read as Kafka reads it: {@code 4.4-IV1} exactly,
     * or a release such as {@code 4.4} (or {@code 4.4.1}: only the first two parts count) for its newest level.
     *
     * @throws IllegalArgumentException with Kafka's message naming the supported versions
     */
    public static MetadataVersion fromVersionString(String text) {
        String[] parts = text.split("\\.");
        String key = parts.length <= 2 ? text : parts[0] + "." + parts[1];
        MetadataVersion found = BY_VERSION_STRING.get(key);
        if (found == null || !found.isProduction()) {
            throw new IllegalArgumentException(
                    "Unknown metadata.version '" + text + "'. Supported metadata.version are: "
                            + Arrays.stream(values())
                                    .filter(MetadataVersion::isProduction)
                                    .map(MetadataVersion::version)
                                    .collect(Collectors.joining(", ")));
        }
        return found;
    }

    /**
     * The level with this feature level, production ready or not.
     *
     * @throws IllegalArgumentException with Kafka's message naming the valid range
     */
    public static MetadataVersion fromFeatureLevel(short featureLevel) {
        for (MetadataVersion candidate : values()) {
            if (candidate.featureLevel == featureLevel) {
                return candidate;
            }
        }
        throw new IllegalArgumentException("No MetadataVersion with feature level " + featureLevel
                + ". Valid feature levels are from " + MINIMUM_VERSION.featureLevel + " to "
                + values()[values().length - 1].featureLevel + ".");
    }

    private static Map<String, MetadataVersion> versionStrings() {
        Map<String, MetadataVersion> byString = new HashMap<>();
        for (MetadataVersion candidate : values()) {
            byString.put(candidate.version, candidate);
            if (candidate.isProduction()) {
                byString.put(candidate.release, candidate);
            }
        }
        return byString;
    }
}
