package io.krabka.kernel.broker;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.feature.Features;
import org.apache.kafka.common.feature.SupportedVersionRange;

/**
 * The feature levels an ApiVersions response reports: what this broker supports (metadata.version,
 * kraft.version, transaction.version, ...) and the finalized levels of the cluster's metadata, with their epoch.
 *
 * @param supported      the supported range of each feature
 * @param finalized      the finalized level of each feature
 * @param finalizedEpoch the metadata offset the finalized levels were read at; -1 when unknown
 */
public record ApiFeatures(Map<String, Range> supported, Map<String, Short> finalized, long finalizedEpoch) {

    /** No features: what a broker reports before its metadata exists. */
    public static final ApiFeatures NONE = new ApiFeatures(Map.of(), Map.of(), -1);

    /** Copies the maps and checks the epoch. */
    public ApiFeatures {
        supported = Map.copyOf(supported);
        finalized = Map.copyOf(finalized);
        if (finalizedEpoch < -1) {
            throw new IllegalArgumentException("finalized features epoch " + finalizedEpoch + " below -1");
        }
    }

    /**
     * A supported version range.
     *
     * @param min the oldest level (0 allowed since ApiVersions v4, KAFKA-17011)
     * @param max the latest level
     */
    public record Range(short min, short max) {
        /** Checks the range. */
        public Range {
            if (min < 0 || min > max) {
                throw new IllegalArgumentException("feature range " + min + "-" + max);
            }
        }
    }

    /** The supported features as kafka-clients' builder takes them. */
    Features<SupportedVersionRange> supportedFeatures() {
        Map<String, SupportedVersionRange> ranges = new HashMap<>();
        supported.forEach((name, range) -> ranges.put(name, new SupportedVersionRange(range.min(), range.max())));
        return Features.supportedFeatures(ranges);
    }
}
