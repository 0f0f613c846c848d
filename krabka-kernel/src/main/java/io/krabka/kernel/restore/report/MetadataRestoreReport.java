package io.krabka.kernel.restore.report;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What became of the cluster metadata beyond the restored topics' names, ids and partitions, which come from the
 * archive's keys.
 *
 * @param snapshot                   the {@code --metadata-snapshot} read, if one was given
 * @param topicConfigs               topic configs restored from it
 * @param accessControlEntries       ACLs restored from it
 * @param clientQuotas               client quotas restored from it
 * @param scramCredentials           SCRAM credentials restored from it
 * @param featureLevels              feature levels taken from it
 * @param topicsWithoutConfiguration restored topics whose configuration could not be recovered
 * @param notRecovered               one line for each kind of metadata that could not be recovered
 */
public record MetadataRestoreReport(
        Optional<String> snapshot,
        int topicConfigs,
        int accessControlEntries,
        int clientQuotas,
        int scramCredentials,
        int featureLevels,
        List<String> topicsWithoutConfiguration,
        List<String> notRecovered) {

    /** Freezes the parts. */
    public MetadataRestoreReport {
        Objects.requireNonNull(snapshot, "snapshot");
        topicsWithoutConfiguration = List.copyOf(topicsWithoutConfiguration);
        notRecovered = List.copyOf(notRecovered);
    }
}
