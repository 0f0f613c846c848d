package io.krabka.kernel.restore;

import java.util.List;
import java.util.Objects;

/**
 * What the discover stage found: the archive's partitions, and the keys that belong to no segment (counted, with
 * a bounded sample for the report).
 *
 * @param location          the store, for messages
 * @param prefix            the archive's key prefix
 * @param partitions        the partitions, by directory name
 * @param unrecognizedKeys  how many keys under the prefix belong to no segment
 * @param unrecognizedSample the first of them, at most {@link ArchiveDiscovery#SAMPLE} keys
 */
public record DiscoveredArchive(
        String location,
        String prefix,
        List<ArchivedPartition> partitions,
        long unrecognizedKeys,
        List<String> unrecognizedSample) {

    /** Freezes the parts. */
    public DiscoveredArchive {
        Objects.requireNonNull(location, "location");
        Objects.requireNonNull(prefix, "prefix");
        partitions = List.copyOf(partitions);
        unrecognizedSample = List.copyOf(unrecognizedSample);
        if (unrecognizedKeys < unrecognizedSample.size()) {
            throw new IllegalArgumentException(
                    "a sample of " + unrecognizedSample.size() + " keys out of " + unrecognizedKeys);
        }
    }

    /** Whether the archive holds no segment at all. */
    public boolean isEmpty() {
        return partitions.isEmpty();
    }
}
