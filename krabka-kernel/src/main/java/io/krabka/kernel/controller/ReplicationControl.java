package io.krabka.kernel.controller;

import io.krabka.kernel.log.LogManager;
import io.krabka.kernel.metadata.ConfigRecord;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.MetadataRecordAndVersion;
import io.krabka.kernel.metadata.MetadataVersion;
import io.krabka.kernel.metadata.PartitionRecord;
import io.krabka.kernel.metadata.PartitionRegistration;
import io.krabka.kernel.metadata.TopicImage;
import io.krabka.kernel.metadata.TopicRecord;
import io.krabka.kernel.metadata.WireUuids;
import io.krabka.spi.common.Uuid;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.errors.InvalidPartitionsException;
import org.apache.kafka.common.errors.InvalidReplicaAssignmentException;
import org.apache.kafka.common.errors.InvalidReplicationFactorException;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.InvalidTopicException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.message.CreatePartitionsRequestData;
import org.apache.kafka.common.message.CreatePartitionsRequestData.CreatePartitionsAssignment;
import org.apache.kafka.common.message.CreatePartitionsRequestData.CreatePartitionsTopic;
import org.apache.kafka.common.message.CreatePartitionsResponseData.CreatePartitionsTopicResult;
import org.apache.kafka.common.message.CreateTopicsRequestData;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableReplicaAssignment;
import org.apache.kafka.common.message.CreateTopicsRequestData.CreatableTopic;
import org.apache.kafka.common.message.CreateTopicsResponseData;
import org.apache.kafka.common.message.CreateTopicsResponseData.CreatableTopicConfigs;
import org.apache.kafka.common.message.CreateTopicsResponseData.CreatableTopicResult;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ApiError;

/**
 * Topic and partition creation as Kafka's {@code ReplicationControlManager} (and the checks of its
 * {@code ControllerApis}) decide them, with Kafka's errors and messages, on a cluster of one node: every replica
 * list is {@code [nodeId]}, which is leader and whole ISR.
 */
final class ReplicationControl {

    private final ControllerConfig config;
    private final ReplicaPlacement placement;
    private final TopicConfigValidator configValidator;
    private final TopicConfigDescriber describer;

    ReplicationControl(ControllerConfig config, TopicConfigValidator configValidator, TopicConfigDescriber describer) {
        this.config = config;
        this.placement = new ReplicaPlacement(config.nodeId());
        this.configValidator = configValidator;
        this.describer = describer;
    }

    ControllerResult<CreateTopicsResponseData> createTopics(MetadataImage image, CreateTopicsRequestData request) {
        CreateTopicsResponseData response = new CreateTopicsResponseData();
        Set<String> duplicates =
                duplicates(request.topics().stream().map(CreatableTopic::name).toList());
        List<MetadataRecordAndVersion> records = new ArrayList<>();
        Set<Uuid> newIds = new HashSet<>();
        for (CreatableTopic topic : request.topics()) {
            if (duplicates.contains(topic.name())) {
                continue;
            }
            CreatableTopicResult result = new CreatableTopicResult().setName(topic.name());
            try {
                List<MetadataRecordAndVersion> topicRecords = createTopic(image, topic, result, newIds);
                records.addAll(topicRecords);
            } catch (ApiException e) {
                ApiError error = ApiError.fromThrowable(e);
                result.setErrorCode(error.error().code()).setErrorMessage(error.message());
            }
            response.topics().add(result);
        }
        duplicates.forEach(name -> response.topics()
                .add(new CreatableTopicResult()
                        .setName(name)
                        .setErrorCode(Errors.INVALID_REQUEST.code())
                        .setErrorMessage("Duplicate topic name.")));
        return new ControllerResult<>(request.validateOnly() ? List.of() : records, response);
    }

    private List<MetadataRecordAndVersion> createTopic(
            MetadataImage image, CreatableTopic topic, CreatableTopicResult result, Set<Uuid> newIds) {
        String name = topic.name();
        Topic.validate(name);
        if (name.equals(LogManager.CLUSTER_METADATA_TOPIC)) {
            throw new InvalidTopicException("Topic '" + name + "' is the cluster metadata log and cannot be created.");
        }
        if (Topic.hasCollisionChars(name)) {
            String unified = Topic.unifyCollisionChars(name);
            for (String existing : image.topics().keySet()) {
                if (!existing.equals(name)
                        && Topic.unifyCollisionChars(existing).equals(unified)) {
                    throw new InvalidTopicException("Topic '" + name + "' collides with existing topic: " + existing);
                }
            }
        }
        if (image.topics().containsKey(name)) {
            throw new org.apache.kafka.common.errors.TopicExistsException("Topic '" + name + "' already exists.");
        }
        Map<String, String> configs = new LinkedHashMap<>();
        topic.configs().forEach(entry -> configs.put(entry.name(), entry.value()));
        configValidator.validate(Map.of(), configs);

        TreeMap<Integer, PartitionRegistration> partitions = new TreeMap<>();
        int replicationFactor;
        if (!topic.assignments().isEmpty()) {
            if (topic.replicationFactor() != -1) {
                throw new InvalidRequestException(
                        "A manual partition assignment was specified, but replication " + "factor was not set to -1.");
            }
            if (topic.numPartitions() != -1) {
                throw new InvalidRequestException(
                        "A manual partition assignment was specified, but numPartitions " + "was not set to -1.");
            }
            Integer expectedSize = null;
            for (CreatableReplicaAssignment assignment : topic.assignments()) {
                if (partitions.containsKey(assignment.partitionIndex())) {
                    throw new InvalidReplicaAssignmentException("Found multiple manual partition assignments for "
                            + "partition " + assignment.partitionIndex());
                }
                placement.validateAssignment(assignment.brokerIds(), expectedSize);
                expectedSize = assignment.brokerIds().size();
                partitions.put(assignment.partitionIndex(), placement.newPartition());
            }
            for (int i = 0; i < partitions.size(); i++) {
                if (!partitions.containsKey(i)) {
                    throw new InvalidReplicaAssignmentException(
                            "partitions should be a consecutive 0-based integer sequence");
                }
            }
            replicationFactor = expectedSize;
        } else if (topic.replicationFactor() < -1 || topic.replicationFactor() == 0) {
            throw new InvalidReplicationFactorException(
                    "Replication factor must be larger than 0, or -1 to use the " + "default value.");
        } else if (topic.numPartitions() < -1 || topic.numPartitions() == 0) {
            throw new InvalidPartitionsException("Number of partitions was set to an invalid non-positive value.");
        } else {
            int numPartitions = topic.numPartitions() == -1 ? config.numPartitions() : topic.numPartitions();
            replicationFactor =
                    topic.replicationFactor() == -1 ? config.defaultReplicationFactor() : topic.replicationFactor();
            placement.checkReplicationFactor(replicationFactor);
            for (int i = 0; i < numPartitions; i++) {
                partitions.put(i, placement.newPartition());
            }
        }

        Uuid topicId = newTopicId(image, newIds);
        List<MetadataRecordAndVersion> records = new ArrayList<>();
        records.add(new MetadataRecordAndVersion(new TopicRecord(name, topicId), (short) 0));
        // As Kafka: the configs after the TopicRecord, before the partitions.
        configs.forEach((key, value) -> records.add(
                new MetadataRecordAndVersion(new ConfigRecord(ConfigRecord.TOPIC, name, key, value), (short) 0)));
        records.addAll(partitionRecords(image, topicId, partitions));

        result.setTopicId(WireUuids.toWire(topicId))
                .setNumPartitions(partitions.size())
                .setReplicationFactor((short) replicationFactor)
                .setTopicConfigErrorCode(Errors.NONE.code());
        describer.effective(configs, image.perBrokerConfig(config.nodeId()), image.brokerConfigs()).stream()
                .sorted((a, b) -> a.def().name().compareTo(b.def().name()))
                .forEach(entry -> result.configs()
                        .add(new CreatableTopicConfigs()
                                .setName(entry.def().name())
                                .setValue(entry.value())
                                .setReadOnly(false)
                                .setConfigSource(entry.source().id())
                                .setIsSensitive(false)));
        return records;
    }

    ControllerResult<List<CreatePartitionsTopicResult>> createPartitions(
            MetadataImage image, CreatePartitionsRequestData request) {
        List<CreatePartitionsTopicResult> results = new ArrayList<>();
        Set<String> duplicates = duplicates(
                request.topics().stream().map(CreatePartitionsTopic::name).toList());
        duplicates.forEach(name -> results.add(new CreatePartitionsTopicResult()
                .setName(name)
                .setErrorCode(Errors.INVALID_REQUEST.code())
                .setErrorMessage("Duplicate topic name.")));
        List<MetadataRecordAndVersion> records = new ArrayList<>();
        for (CreatePartitionsTopic topic : request.topics()) {
            if (duplicates.contains(topic.name())) {
                continue;
            }
            ApiError error = ApiError.NONE;
            try {
                records.addAll(createPartitions(image, topic));
            } catch (ApiException e) {
                error = ApiError.fromThrowable(e);
            }
            results.add(new CreatePartitionsTopicResult()
                    .setName(topic.name())
                    .setErrorCode(error.error().code())
                    .setErrorMessage(error.message()));
        }
        return new ControllerResult<>(request.validateOnly() ? List.of() : records, results);
    }

    private List<MetadataRecordAndVersion> createPartitions(MetadataImage image, CreatePartitionsTopic request) {
        TopicImage topic = image.topic(request.name()).orElseThrow(UnknownTopicOrPartitionException::new);
        int current = topic.partitions().size();
        if (request.count() == current) {
            throw new InvalidPartitionsException("Topic already has " + current + " partition(s).");
        } else if (request.count() < current) {
            throw new InvalidPartitionsException("The topic " + request.name() + " currently has " + current
                    + " partition(s); " + request.count() + " would not be an increase.");
        }
        int additional = request.count() - current;
        int replicationFactor = topic.partitions().get(0).replicas().size();
        if (request.assignments() != null) {
            if (request.assignments().size() != additional) {
                throw new InvalidReplicaAssignmentException("Attempted to add " + additional + " additional "
                        + "partition(s), but only " + request.assignments().size() + " assignment(s) were specified.");
            }
            for (CreatePartitionsAssignment assignment : request.assignments()) {
                placement.validateAssignment(assignment.brokerIds(), replicationFactor);
            }
        } else {
            placement.checkReplicationFactor(replicationFactor);
        }
        TreeMap<Integer, PartitionRegistration> partitions = new TreeMap<>();
        for (int i = current; i < request.count(); i++) {
            partitions.put(i, placement.newPartition());
        }
        return partitionRecords(image, topic.id(), partitions);
    }

    private List<MetadataRecordAndVersion> partitionRecords(
            MetadataImage image, Uuid topicId, Map<Integer, PartitionRegistration> partitions) {
        short version = partitionRecordVersion(image);
        List<Uuid> directories = version >= 1 ? List.of(config.defaultDirectory()) : List.of();
        List<MetadataRecordAndVersion> records = new ArrayList<>();
        partitions.forEach((index, registration) -> records.add(
                new MetadataRecordAndVersion(PartitionRecord.of(topicId, index, registration, directories), version)));
        return records;
    }

    static short partitionRecordVersion(MetadataImage image) {
        Short level = image.features().get(MetadataVersion.FEATURE_NAME);
        return (level == null ? MetadataVersion.LATEST_PRODUCTION : MetadataVersion.fromFeatureLevel(level))
                .partitionRecordVersion();
    }

    private static Uuid newTopicId(MetadataImage image, Set<Uuid> taken) {
        while (true) {
            Uuid id = Uuid.randomUuid();
            if (image.topic(id).isEmpty() && taken.add(id)) {
                return id;
            }
        }
    }

    private static Set<String> duplicates(List<String> names) {
        Set<String> seen = new HashSet<>();
        Set<String> duplicates = new LinkedHashSet<>();
        for (String name : names) {
            if (!seen.add(name)) {
                duplicates.add(name);
            }
        }
        return duplicates;
    }
}
