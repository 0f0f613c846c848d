package io.krabka.kernel.metadata;

import java.util.Map;
import java.util.Objects;

/**
 * One level of a {@link Feature}: the {@code metadata.version} from which a new cluster gets it by default, and
 * the levels of other features it needs.
 *
 * @param featureLevel              the level
 * @param bootstrapMetadataVersion  the oldest {@code metadata.version} whose clusters start at this level
 * @param dependencies              feature name to the lowest level of it this level needs
 */
public record FeatureVersion(
        short featureLevel, MetadataVersion bootstrapMetadataVersion, Map<String, Short> dependencies) {

    /** Validates the values. */
    public FeatureVersion {
        if (featureLevel < 0) {
            throw new IllegalArgumentException("negative feature level " + featureLevel);
        }
        Objects.requireNonNull(bootstrapMetadataVersion, "bootstrapMetadataVersion");
        dependencies = Map.copyOf(dependencies);
    }

    /** A level without dependencies. */
    static FeatureVersion of(int featureLevel, MetadataVersion bootstrapMetadataVersion) {
        return new FeatureVersion((short) featureLevel, bootstrapMetadataVersion, Map.of());
    }
}
