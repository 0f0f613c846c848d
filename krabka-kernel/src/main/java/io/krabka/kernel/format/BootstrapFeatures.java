package io.krabka.kernel.format;

import io.krabka.kernel.metadata.Feature;
import io.krabka.kernel.metadata.FeatureLevelRecord;
import io.krabka.kernel.metadata.FeatureVersion;
import io.krabka.kernel.metadata.MetadataVersion;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The feature levels a new cluster starts with, worked out from {@code --release-version} and {@code --feature}
 * as Kafka 4.4's format tool works them out, with its checks and messages, for a controller quorum that is
 * always dynamic (KIP-853): {@code kraft.version} defaults to 1 and cannot be 0.
 *
 * @param metadataVersion the cluster's {@code metadata.version}
 * @param levels          every feature's level by name, {@code metadata.version} and {@code kraft.version} included
 */
public record BootstrapFeatures(MetadataVersion metadataVersion, SortedMap<String, Short> levels) {

    /** The {@code kraft.version} of a dynamic quorum. */
    public static final short KRAFT_VERSION_1 = 1;

    /** Copies the levels. */
    public BootstrapFeatures {
        levels = Collections.unmodifiableSortedMap(new TreeMap<>(levels));
    }

    /**
     * Resolves the levels.
     *
     * @param releaseVersion a {@code metadata.version} name, such as {@code 4.4-IV2} or {@code 4.4}; Kafka 4.4's
     *                       newest production level when empty
     * @param featureArgs    {@code name=level} settings; a later setting of a feature wins
     * @throws FormatException ({@link FormatException.Kind#INVALID_FEATURES}) with Kafka's message
     */
    public static BootstrapFeatures resolve(Optional<String> releaseVersion, List<String> featureArgs)
            throws FormatException {
        try {
            Optional<MetadataVersion> release = releaseVersion.map(MetadataVersion::fromVersionString);
            Map<String, Short> requested = parse(featureArgs);
            MetadataVersion metadataVersion = effectiveMetadataVersion(release, requested);
            return new BootstrapFeatures(metadataVersion, effectiveLevels(metadataVersion, requested));
        } catch (IllegalArgumentException e) {
            throw new FormatException(FormatException.Kind.INVALID_FEATURES, e.getMessage(), e);
        }
    }

    /** The level of {@code kraft.version}. */
    public short kraftVersion() {
        return levels.get(Feature.KRAFT_VERSION.featureName());
    }

    /**
     * The feature records of the bootstrap snapshot, as Kafka writes them: {@code metadata.version} first, then the
     * other features by name, leaving out {@code kraft.version} (KRaft records it itself) and features at level 0.
     */
    public List<FeatureLevelRecord> records() {
        List<FeatureLevelRecord> records = new ArrayList<>();
        records.add(new FeatureLevelRecord(MetadataVersion.FEATURE_NAME, metadataVersion.featureLevel()));
        levels.forEach((name, level) -> {
            if (!name.equals(MetadataVersion.FEATURE_NAME)
                    && !name.equals(Feature.KRAFT_VERSION.featureName())
                    && level > 0) {
                records.add(new FeatureLevelRecord(name, level));
            }
        });
        return records;
    }

    private static Map<String, Short> parse(List<String> featureArgs) {
        Map<String, Short> requested = new TreeMap<>();
        for (String arg : featureArgs) {
            int equals = arg.indexOf('=');
            if (equals < 0) {
                throw new IllegalArgumentException(
                        "Can't parse feature=level string " + arg + ": equals sign not found.");
            }
            String level = arg.substring(equals + 1).trim();
            try {
                requested.put(arg.substring(0, equals).trim(), Short.parseShort(level));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        "Can't parse feature=level string " + arg + ": unable to parse " + level + " as a short.", e);
            }
        }
        return requested;
    }

    private static MetadataVersion effectiveMetadataVersion(
            Optional<MetadataVersion> release, Map<String, Short> requested) {
        Short level = requested.get(MetadataVersion.FEATURE_NAME);
        if (level == null) {
            return release.orElse(MetadataVersion.LATEST_PRODUCTION);
        }
        if (release.isPresent()) {
            throw new IllegalArgumentException("Use --release-version instead of --feature "
                    + MetadataVersion.FEATURE_NAME + "=X to avoid ambiguity.");
        }
        MetadataVersion metadataVersion = MetadataVersion.fromFeatureLevel(level);
        if (!metadataVersion.isProduction()) {
            throw new IllegalArgumentException(
                    MetadataVersion.FEATURE_NAME + " " + metadataVersion + " is not yet stable.");
        }
        return metadataVersion;
    }

    private static SortedMap<String, Short> effectiveLevels(
            MetadataVersion metadataVersion, Map<String, Short> requested) {
        for (String name : requested.keySet()) {
            if (!name.equals(MetadataVersion.FEATURE_NAME)
                    && Feature.fromName(name).isEmpty()) {
                throw new IllegalArgumentException("Unsupported feature: " + name + ". Supported features are: "
                        + Arrays.stream(Feature.values())
                                .map(Feature::featureName)
                                .sorted()
                                .collect(Collectors.joining(", ")));
            }
        }
        SortedMap<String, Short> levels = new TreeMap<>(requested);
        levels.put(MetadataVersion.FEATURE_NAME, metadataVersion.featureLevel());
        for (Feature feature : Feature.values()) {
            if (feature == Feature.KRAFT_VERSION) {
                levels.put(feature.featureName(), kraftVersion(requested.get(feature.featureName())));
            } else {
                levels.putIfAbsent(feature.featureName(), feature.defaultLevel(metadataVersion));
            }
        }
        // Checked by name, once every level is known: a level may depend on another feature's.
        levels.forEach((name, level) -> {
            if (!name.equals(MetadataVersion.FEATURE_NAME)) {
                Feature feature = Feature.fromName(name).orElseThrow();
                FeatureVersion version = feature.fromFeatureLevel(level);
                feature.validateDependencies(version, levels);
            }
        });
        return levels;
    }

    // Every quorum Krabka formats is dynamic, which needs kraft.version 1.
    private static short kraftVersion(Short requested) {
        if (requested == null) {
            return KRAFT_VERSION_1;
        }
        if (requested == 0) {
            throw new IllegalArgumentException("Cannot set kraft.version to 0 if controller.quorum.voters is empty and "
                    + "one of the flags --standalone, --initial-controllers, or --no-initial-controllers is used. For "
                    + "dynamic controllers support, try removing the --feature flag for kraft.version.");
        }
        return requested;
    }
}
