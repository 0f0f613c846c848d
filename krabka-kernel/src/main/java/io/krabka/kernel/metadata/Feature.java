package io.krabka.kernel.metadata;

import static io.krabka.kernel.metadata.MetadataVersion.IBP_3_3_IV3;
import static io.krabka.kernel.metadata.MetadataVersion.IBP_3_9_IV0;
import static io.krabka.kernel.metadata.MetadataVersion.IBP_4_0_IV0;
import static io.krabka.kernel.metadata.MetadataVersion.IBP_4_0_IV1;
import static io.krabka.kernel.metadata.MetadataVersion.IBP_4_0_IV2;
import static io.krabka.kernel.metadata.MetadataVersion.IBP_4_1_IV0;
import static io.krabka.kernel.metadata.MetadataVersion.IBP_4_2_IV0;
import static io.krabka.kernel.metadata.MetadataVersion.IBP_4_2_IV1;
import static io.krabka.kernel.metadata.MetadataVersion.IBP_4_4_IV0;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The features a Kafka 4.4 cluster finalizes besides {@code metadata.version}, each with the levels Kafka 4.4
 * defines, all production ready. Kafka's test-only features are left out, as Kafka's format tool leaves them out.
 */
public enum Feature {
    /** KRaft's own version: 1 is the dynamic quorum of KIP-853, recorded in the log rather than as a feature record. */
    KRAFT_VERSION("kraft.version", FeatureVersion.of(0, IBP_3_3_IV3), FeatureVersion.of(1, IBP_3_9_IV0)),
    /** The transaction protocol: 2 is KIP-890's server-side defence. */
    TRANSACTION_VERSION(
            "transaction.version",
            FeatureVersion.of(0, IBP_3_3_IV3),
            FeatureVersion.of(1, IBP_4_0_IV2),
            FeatureVersion.of(2, IBP_4_0_IV2)),
    /** The consumer group protocol: 1 enables KIP-848's. */
    GROUP_VERSION("group.version", FeatureVersion.of(0, IBP_3_3_IV3), FeatureVersion.of(1, IBP_4_0_IV0)),
    /** KIP-966's eligible leader replicas. */
    ELIGIBLE_LEADER_REPLICAS_VERSION(
            "eligible.leader.replicas.version",
            FeatureVersion.of(0, IBP_3_3_IV3),
            new FeatureVersion(
                    (short) 1, IBP_4_1_IV0, Map.of(MetadataVersion.FEATURE_NAME, IBP_4_0_IV1.featureLevel()))),
    /** KIP-932's share groups. */
    SHARE_VERSION(
            "share.version",
            FeatureVersion.of(0, IBP_3_3_IV3),
            FeatureVersion.of(1, IBP_4_2_IV0),
            FeatureVersion.of(2, IBP_4_4_IV0)),
    /** KIP-1071's streams groups. */
    STREAMS_VERSION("streams.version", FeatureVersion.of(0, IBP_3_3_IV3), FeatureVersion.of(1, IBP_4_2_IV1));

    private final String featureName;
    private final List<FeatureVersion> levels;

    Feature(String featureName, FeatureVersion... levels) {
        this.featureName = featureName;
        this.levels = List.of(levels);
    }

    /** The name in feature records and on the command line. */
    public String featureName() {
        return featureName;
    }

    /** Its levels, lowest first. */
    public List<FeatureVersion> levels() {
        return levels;
    }

    /** The highest level. */
    public short latestProduction() {
        return levels.getLast().featureLevel();
    }

    /**
     * The level a new cluster at {@code metadataVersion} starts with: the highest whose bootstrap
     * {@code metadata.version} it has reached, among the levels up to the first it has not.
     */
    public short defaultLevel(MetadataVersion metadataVersion) {
        FeatureVersion chosen = levels.getFirst();
        for (FeatureVersion level : levels) {
            if (level.bootstrapMetadataVersion().compareTo(metadataVersion) > 0) {
                break;
            }
            chosen = level;
        }
        return chosen.featureLevel();
    }

    /**
     * The level {@code featureLevel}.
     *
     * @throws IllegalArgumentException with Kafka's message when the feature has no such level
     */
    public FeatureVersion fromFeatureLevel(short featureLevel) {
        return levels.stream()
                .filter(level -> level.featureLevel() == featureLevel)
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException(
                        "No feature:" + featureName + " with feature level " + featureLevel));
    }

    /**
     * Checks that the levels in {@code features} (feature name to level, {@code metadata.version} included) are
     * those {@code level} of this feature needs.
     *
     * @throws IllegalArgumentException with Kafka's message naming the first unmet dependency
     */
    public void validateDependencies(FeatureVersion level, Map<String, Short> features) {
        for (Map.Entry<String, Short> dependency : level.dependencies().entrySet()) {
            Short present = features.get(dependency.getKey());
            if (present == null || present < dependency.getValue()) {
                throw new IllegalArgumentException(featureName + " could not be set to " + level.featureLevel()
                        + " because it depends on " + dependency.getKey() + " level " + dependency.getValue());
            }
        }
    }

    /** The feature with this name. */
    public static Optional<Feature> fromName(String featureName) {
        for (Feature feature : values()) {
            if (feature.featureName.equals(featureName)) {
                return Optional.of(feature);
            }
        }
        return Optional.empty();
    }
}
