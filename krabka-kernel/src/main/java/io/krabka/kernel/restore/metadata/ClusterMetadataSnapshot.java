package io.krabka.kernel.restore.metadata;

import io.krabka.kernel.metadata.ConfigRecord;
import io.krabka.kernel.metadata.MetadataParseException;
import io.krabka.kernel.metadata.MetadataRecord;
import io.krabka.kernel.metadata.MetadataRecordSerde;
import io.krabka.kernel.metadata.TopicRecord;
import io.krabka.kernel.record.RecordException;
import io.krabka.kernel.restore.MetadataDisagreementException;
import io.krabka.kernel.restore.bound.InvalidRestoreArgumentException;
import io.krabka.kernel.restore.report.MetadataRestoreReport;
import io.krabka.spi.common.Uuid;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The old cluster's KRaft metadata snapshot ({@code --metadata-snapshot}, a {@code <offset>-<epoch>.checkpoint} of
 * {@code __cluster_metadata}): its topics' ids, which must agree with the archive's, and their configs, which the
 * restore writes. Of the rest it counts what the report names (ACLs, client quotas, SCRAM credentials, delegation
 * tokens, feature levels), read but not restored in this version; records of other kinds (brokers, partitions,
 * producer ids...) describe the old cluster's machines and are passed over.
 */
public final class ClusterMetadataSnapshot {
    private static final String TOPIC_CONFIGS_ONLY = "this version restores topic configs only";
    private static final String NO_OFFSETS = "consumer group offsets: not restored, they are not in a tiered archive";

    private final Path file;
    private final Map<String, Uuid> topicIds;
    private final Map<Uuid, String> topicNames;
    private final Map<String, Map<String, String>> configs;
    private final Map<UnrestoredMetadata, Integer> unrestored;

    private ClusterMetadataSnapshot(
            Path file,
            Map<String, Uuid> topicIds,
            Map<Uuid, String> topicNames,
            Map<String, Map<String, String>> configs,
            Map<UnrestoredMetadata, Integer> unrestored) {
        this.file = file;
        this.topicIds = topicIds;
        this.topicNames = topicNames;
        this.configs = configs;
        this.unrestored = unrestored;
    }

    /**
     * Reads the snapshot {@code file}.
     *
     * @throws InvalidRestoreArgumentException if it cannot be read or is not a whole KRaft snapshot of metadata
     *                                         records; the message names the file
     */
    public static ClusterMetadataSnapshot read(Path file) throws InvalidRestoreArgumentException {
        ByteBuffer content;
        try {
            content = ByteBuffer.wrap(Files.readAllBytes(file));
        } catch (NoSuchFileException e) {
            throw invalid(file, "no such file");
        } catch (IOException e) {
            throw invalid(file, "cannot be read: " + e.getMessage());
        }
        Map<String, Uuid> topicIds = new HashMap<>();
        Map<Uuid, String> topicNames = new HashMap<>();
        Map<String, Map<String, String>> configs = new HashMap<>();
        Map<UnrestoredMetadata, Integer> unrestored = new EnumMap<>(UnrestoredMetadata.class);
        try {
            for (ByteBuffer value : KraftSnapshotFile.metadataRecords(content, file.toString())) {
                int apiKey = MetadataRecordSerde.apiKey(value);
                if (apiKey == TopicRecord.API_KEY || apiKey == ConfigRecord.API_KEY) {
                    MetadataRecord record = MetadataRecordSerde.read(value).record();
                    if (record instanceof TopicRecord topic
                            && (topicIds.put(topic.name(), topic.topicId()) != null
                                    || topicNames.put(topic.topicId(), topic.name()) != null)) {
                        throw new MetadataParseException(
                                "a second topic '" + topic.name() + "' or topic id " + topic.topicId());
                    }
                    if (record instanceof ConfigRecord config && config.resourceType() == ConfigRecord.TOPIC) {
                        Map<String, String> topic =
                                configs.computeIfAbsent(config.resourceName(), t -> new TreeMap<>());
                        // A null value removes the config, as in the metadata log; a snapshot holds none.
                        if (config.value() == null) {
                            topic.remove(config.name());
                        } else {
                            topic.put(config.name(), config.value());
                        }
                    }
                } else {
                    UnrestoredMetadata.of(apiKey).ifPresent(kind -> unrestored.merge(kind, 1, Integer::sum));
                }
            }
        } catch (MetadataParseException | RecordException e) {
            throw invalid(file, "not a KRaft metadata snapshot: " + e.getMessage());
        }
        return new ClusterMetadataSnapshot(file, topicIds, topicNames, configs, unrestored);
    }

    /**
     * Checks that the snapshot gives each of {@code restoredTopics} (name to id, from the archive) that it knows
     * the same id, and each id it knows the same name.
     *
     * @throws MetadataDisagreementException naming the snapshot and the first topic, by name, that disagrees
     */
    public void check(Map<String, Uuid> restoredTopics) throws MetadataDisagreementException {
        for (Map.Entry<String, Uuid> topic : new TreeMap<>(restoredTopics).entrySet()) {
            Uuid snapshotId = topicIds.get(topic.getKey());
            String snapshotName = topicNames.get(topic.getValue());
            if (snapshotId != null && !snapshotId.equals(topic.getValue())) {
                throw mismatch("topic '" + topic.getKey() + "' has id " + topic.getValue() + " in the archive but "
                        + snapshotId + " in the metadata snapshot");
            }
            if (snapshotName != null && !snapshotName.equals(topic.getKey())) {
                throw mismatch("topic id " + topic.getValue() + " is topic '" + topic.getKey()
                        + "' in the archive but '" + snapshotName + "' in the metadata snapshot");
            }
        }
    }

    /** The configs the snapshot sets on {@code topic}, by key; empty if it sets none or does not know the topic. */
    public Map<String, String> topicConfigs(String topic) {
        return Map.copyOf(configs.getOrDefault(topic, Map.of()));
    }

    /** What the snapshot gives {@code restoredTopics}: their configs, and what it holds that is not restored. */
    public MetadataRestoreReport report(Set<String> restoredTopics) {
        int topicConfigs = 0;
        List<String> withoutConfiguration = new ArrayList<>();
        for (String topic : new TreeSet<>(restoredTopics)) {
            if (topicIds.containsKey(topic)) {
                topicConfigs += topicConfigs(topic).size();
            } else {
                withoutConfiguration.add(topic);
            }
        }
        List<String> notRecovered = new ArrayList<>();
        unrestored.forEach((kind, count) -> notRecovered.add(
                kind.description() + ": " + count + " read from the snapshot, not restored; " + TOPIC_CONFIGS_ONLY));
        notRecovered.add(NO_OFFSETS);
        return new MetadataRestoreReport(
                Optional.of(file.toString()), topicConfigs, 0, 0, 0, 0, withoutConfiguration, notRecovered);
    }

    /** The report of a restore without a snapshot: no restored topic has its configuration back. */
    public static MetadataRestoreReport withoutSnapshot(Set<String> restoredTopics) {
        List<String> notRecovered = new ArrayList<>();
        notRecovered.add("topic configs: not restored without --metadata-snapshot; the topics take the broker's"
                + " defaults but for retention");
        for (UnrestoredMetadata kind : UnrestoredMetadata.values()) {
            notRecovered.add(kind.description() + ": not restored; " + TOPIC_CONFIGS_ONLY);
        }
        notRecovered.add(NO_OFFSETS);
        return new MetadataRestoreReport(
                Optional.empty(), 0, 0, 0, 0, 0, List.copyOf(new TreeSet<>(restoredTopics)), notRecovered);
    }

    private MetadataDisagreementException mismatch(String detail) {
        return new MetadataDisagreementException(file.toString(), detail);
    }

    private static InvalidRestoreArgumentException invalid(Path file, String reason) {
        return new InvalidRestoreArgumentException("--metadata-snapshot " + file + ": " + reason);
    }
}
