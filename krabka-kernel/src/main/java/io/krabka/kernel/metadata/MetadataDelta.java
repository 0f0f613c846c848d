package io.krabka.kernel.metadata;

import io.krabka.spi.common.Uuid;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.common.quota.ClientQuotaEntity;

/**
 * The changes of metadata records to an image (Kafka's {@code MetadataDelta}): records are replayed in log order,
 * then {@link #apply} makes the next image. A metadata transaction's records apply at its end, not at all if it
 * is aborted; the record types Krabka does not serve are counted and left to the log, which keeps them. Not thread-safe: the controller's one thread replays.
 */
public final class MetadataDelta {

    private final Map<String, Short> features;
    private final Map<String, TopicImage> topics;
    private final Map<Uuid, String> topicNames = new HashMap<>();
    private final Map<String, TreeMap<Integer, PartitionRegistration>> changedPartitions = new HashMap<>();
    private final Map<String, Map<String, String>> topicConfigs;
    private final Map<String, String> brokerConfigs;
    private final Map<String, Map<String, String>> perBrokerConfigs = new HashMap<>();
    private final Map<String, Map<String, String>> groupConfigs = new HashMap<>();
    private long nextProducerId;
    // Copied from the base only once a record changes them: most deltas touch none, and an image keeps its
    // base's ACLs, credentials and quotas (the same instances) then.
    private final MetadataImage base;
    private Map<Uuid, StandardAcl> acls;
    private Map<ScramMechanism, Map<String, ScramCredentialData>> scram;
    private Map<ClientQuotaEntity, Map<String, Double>> clientQuotas;
    /** The records since a BeginTransactionRecord, applied at its end; null outside a transaction. */
    private List<MetadataRecord> transaction;

    private final Map<RetainedRecordType, Integer> retained = new EnumMap<>(RetainedRecordType.class);

    /** A delta over {@code base}. */
    public MetadataDelta(MetadataImage base) {
        Objects.requireNonNull(base, "base");
        features = new HashMap<>(base.features());
        topics = new HashMap<>(base.topics());
        topics.values().forEach(topic -> topicNames.put(topic.id(), topic.name()));
        topicConfigs = new HashMap<>();
        base.topicConfigs().forEach((topic, configs) -> topicConfigs.put(topic, new HashMap<>(configs)));
        brokerConfigs = new HashMap<>(base.brokerConfigs());
        base.perBrokerConfigs().forEach((broker, configs) -> perBrokerConfigs.put(broker, new HashMap<>(configs)));
        base.groupConfigs().forEach((group, configs) -> groupConfigs.put(group, new HashMap<>(configs)));
        nextProducerId = base.nextProducerId();
        this.base = base;
    }

    private Map<Uuid, StandardAcl> acls() {
        if (acls == null) {
            acls = new HashMap<>(base.acls().acls());
        }
        return acls;
    }

    private Map<ScramMechanism, Map<String, ScramCredentialData>> scram() {
        if (scram == null) {
            scram = new EnumMap<>(ScramMechanism.class);
            base.scram().credentials().forEach((mechanism, users) -> scram.put(mechanism, new HashMap<>(users)));
        }
        return scram;
    }

    private Map<ClientQuotaEntity, Map<String, Double>> clientQuotas() {
        if (clientQuotas == null) {
            clientQuotas = new HashMap<>();
            base.clientQuotas().entities().forEach((entity, quotas) -> clientQuotas.put(entity, new HashMap<>(quotas)));
        }
        return clientQuotas;
    }

    /**
     * Replays one record.
     *
     * @throws MetadataParseException if the record does not fit the metadata (a partition of an unknown topic, a
     *                                topic created twice, a config of a resource the cluster does not have)
     */
    public void replay(MetadataRecord record) {
        if (record instanceof MetadataTransactionRecord marker) {
            replayMarker(marker);
        } else if (transaction != null) {
            transaction.add(record);
        } else {
            applyRecord(record);
        }
    }

    /** Whether the records replayed end inside a metadata transaction, which then has not applied. */
    public boolean inTransaction() {
        return transaction != null;
    }

    /** How many records of each type Kafka writes but Krabka does not apply were replayed. */
    public Map<RetainedRecordType, Integer> retained() {
        return Map.copyOf(retained);
    }

    // Kafka's MetadataLoader publishes a transaction's records at its end and drops them at an abort.
    private void replayMarker(MetadataTransactionRecord marker) {
        switch (marker.kind()) {
            case NO_OP -> {}
            case BEGIN -> {
                if (transaction != null) {
                    throw new MetadataParseException("BeginTransactionRecord inside a metadata transaction");
                }
                transaction = new ArrayList<>();
            }
            case END -> {
                if (transaction == null) {
                    throw new MetadataParseException("EndTransactionRecord outside a metadata transaction");
                }
                List<MetadataRecord> records = transaction;
                transaction = null;
                records.forEach(this::applyRecord);
            }
            case ABORT -> transaction = null;
        }
    }

    private void applyRecord(MetadataRecord record) {
        switch (record) {
            case FeatureLevelRecord feature -> {
                if (feature.featureLevel() == 0) {
                    features.remove(feature.name());
                } else {
                    features.put(feature.name(), feature.featureLevel());
                }
            }
            case TopicRecord topic -> {
                if (topics.containsKey(topic.name()) || topicNames.containsKey(topic.topicId())) {
                    throw new MetadataParseException(
                            "TopicRecord for " + topic.name() + " (" + topic.topicId() + "), which exists");
                }
                topics.put(topic.name(), TopicImage.of(topic.name(), topic.topicId(), Map.of()));
                topicNames.put(topic.topicId(), topic.name());
            }
            case PartitionRecord partition ->
                partitions(topicName(partition.topicId(), "PartitionRecord"))
                        .put(partition.partitionId(), partition.registration());
            case ConfigRecord config -> replayConfig(config);
            case RemoveTopicRecord remove -> {
                String name = topicName(remove.topicId(), "RemoveTopicRecord");
                topics.remove(name);
                topicNames.remove(remove.topicId());
                changedPartitions.remove(name);
                topicConfigs.remove(name);
            }
            case ProducerIdsRecord producerIds -> nextProducerId = producerIds.nextProducerId();
            case PartitionChangeRecord change -> {
                TreeMap<Integer, PartitionRegistration> partitions =
                        partitions(topicName(change.topicId(), "PartitionChangeRecord"));
                PartitionRegistration current = partitions.get(change.partitionId());
                if (current == null) {
                    throw new MetadataParseException("PartitionChangeRecord for unknown partition "
                            + change.partitionId() + " of topic id " + change.topicId());
                }
                partitions.put(change.partitionId(), change.merge(current));
            }
            case AccessControlEntryRecord entry -> {
                if (acls().putIfAbsent(entry.id(), entry.acl()) != null) {
                    throw new MetadataParseException(
                            "AccessControlEntryRecord for ACL id " + entry.id() + ", which exists");
                }
            }
            case RemoveAccessControlEntryRecord remove -> {
                if (acls().remove(remove.id()) == null) {
                    throw new MetadataParseException(
                            "RemoveAccessControlEntryRecord for unknown ACL id " + remove.id());
                }
            }
            case UserScramCredentialRecord credential ->
                scram().computeIfAbsent(mechanism(credential.mechanism()), m -> new HashMap<>())
                        .put(credential.name(), credential.credential());
            case RemoveUserScramCredentialRecord remove ->
                scram().computeIfAbsent(mechanism(remove.mechanism()), m -> new HashMap<>())
                        .remove(remove.name());
            case ClientQuotaRecord quota -> {
                Map<String, Double> quotas = clientQuotas().computeIfAbsent(quota.quotaEntity(), e -> new HashMap<>());
                if (quota.remove()) {
                    quotas.remove(quota.key());
                } else {
                    quotas.put(quota.key(), quota.value());
                }
            }
            case RetainedRecord kept -> retained.merge(kept.type(), 1, Integer::sum);
            case MetadataTransactionRecord marker -> replayMarker(marker);
        }
    }

    /** The image after the replayed records, at {@code offset}: the offset of the last of them. */
    public MetadataImage apply(long offset) {
        Map<String, TopicImage> newTopics = new HashMap<>(topics);
        changedPartitions.forEach((name, partitions) ->
                newTopics.put(name, new TopicImage(name, topics.get(name).id(), partitions)));
        return new MetadataImage(
                offset,
                features,
                newTopics,
                topicConfigs,
                brokerConfigs,
                perBrokerConfigs,
                groupConfigs,
                nextProducerId,
                acls == null ? base.acls() : new AclsImage(acls),
                scram == null ? base.scram() : new ScramImage(scram),
                clientQuotas == null ? base.clientQuotas() : new ClientQuotasImage(clientQuotas));
    }

    private static ScramMechanism mechanism(byte type) {
        ScramMechanism mechanism = ScramMechanism.fromType(type);
        if (mechanism == ScramMechanism.UNKNOWN) {
            throw new MetadataParseException("SCRAM credential record of unknown mechanism " + type);
        }
        return mechanism;
    }

    private void replayConfig(ConfigRecord config) {
        String name = config.resourceName();
        Map<String, Map<String, String>> byName = switch (config.resourceType()) {
            case ConfigRecord.TOPIC -> {
                if (!topics.containsKey(name)) {
                    throw new MetadataParseException("ConfigRecord for unknown topic " + name);
                }
                yield topicConfigs;
            }
            case ConfigRecord.BROKER -> {
                if (name.isEmpty()) {
                    apply(brokerConfigs, config);
                    yield null;
                }
                yield perBrokerConfigs;
            }
            case ConfigRecord.GROUP -> groupConfigs;
            default -> throw new MetadataParseException("ConfigRecord for resource type " + config.resourceType());
        };
        if (byName != null) {
            Map<String, String> configs = byName.computeIfAbsent(name, resource -> new HashMap<>());
            apply(configs, config);
            if (configs.isEmpty()) {
                byName.remove(name);
            }
        }
    }

    private static void apply(Map<String, String> configs, ConfigRecord config) {
        if (config.value() == null) {
            configs.remove(config.name());
        } else {
            configs.put(config.name(), config.value());
        }
    }

    private TreeMap<Integer, PartitionRegistration> partitions(String topic) {
        return changedPartitions.computeIfAbsent(
                topic, name -> new TreeMap<>(topics.get(name).partitions()));
    }

    private String topicName(Uuid topicId, String recordType) {
        String name = topicNames.get(topicId);
        if (name == null) {
            throw new MetadataParseException(recordType + " for unknown topic id " + topicId);
        }
        return name;
    }
}
