package io.krabka.kernel.controller;

import io.krabka.kernel.metadata.ConfigRecord;
import io.krabka.kernel.metadata.Feature;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.MetadataRecordAndVersion;
import io.krabka.spi.plugin.ConfigKey;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.message.AlterConfigsRequestData;
import org.apache.kafka.common.message.AlterConfigsResponseData;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData.AlterConfigsResource;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData.AlterableConfig;
import org.apache.kafka.common.message.IncrementalAlterConfigsResponseData;
import org.apache.kafka.common.message.IncrementalAlterConfigsResponseData.AlterConfigsResourceResponse;
import org.apache.kafka.common.requests.ApiError;

/**
 * IncrementalAlterConfigs and (legacy) AlterConfigs as Kafka's broker ({@code ConfigAdminManager.preprocess}) and
 * controller ({@code ConfigurationControlManager}) decide them between them, with their errors and messages: each
 * resource at most once, no key twice, no null value to set; then the resource's own checks (a topic that exists, this
 * broker or the cluster default, a named group) and its configs' ({@link TopicConfigValidator}, or the
 * {@link ConfigurationValidator} the broker registered for broker and group configs); then a {@code ConfigRecord} per
 * key whose value changes.
 */
final class ConfigurationControl {

    private final int nodeId;
    private final TopicConfigValidator topics;
    private final Map<ConfigResource.Type, ConfigurationValidator> validators = new ConcurrentHashMap<>();

    ConfigurationControl(int nodeId, TopicConfigValidator topics) {
        this.nodeId = nodeId;
        this.topics = Objects.requireNonNull(topics, "topics");
    }

    /** Serves the configs of {@code type} (BROKER, GROUP) with the checks of {@code validator}. */
    void register(ConfigResource.Type type, ConfigurationValidator validator) {
        validators.put(type, Objects.requireNonNull(validator, "validator"));
    }

    ControllerResult<IncrementalAlterConfigsResponseData> incrementalAlterConfigs(
            MetadataImage image, IncrementalAlterConfigsRequestData request) {
        IncrementalAlterConfigsResponseData response = new IncrementalAlterConfigsResponseData();
        List<MetadataRecordAndVersion> records = new ArrayList<>();
        Set<String> repeated = repeated(request.resources().stream()
                .map(r -> r.resourceType() + ":" + r.resourceName())
                .toList());
        for (AlterConfigsResource resource : request.resources()) {
            ApiError error = ApiError.NONE;
            try {
                if (repeated.contains(resource.resourceType() + ":" + resource.resourceName())) {
                    throw new InvalidRequestException("Each resource must appear at most once.");
                }
                checkKeys(resource.configs().stream().map(AlterableConfig::name).toList());
                checkNulls(resource.configs().stream()
                        .filter(c -> c.configOperation() != IncrementalChange.DELETE && c.value() == null)
                        .map(AlterableConfig::name)
                        .toList());
                Target target = target(image, resource.resourceType(), resource.resourceName());
                Map<String, String> proposed = new HashMap<>(target.current());
                for (AlterableConfig config : resource.configs()) {
                    proposed.compute(
                            config.name(),
                            (key, value) -> IncrementalChange.apply(key, value, config, target.keys(), target.type()));
                }
                records.addAll(change(image, target, proposed));
            } catch (ApiException e) {
                error = ApiError.fromThrowable(e);
            }
            response.responses()
                    .add(new AlterConfigsResourceResponse()
                            .setResourceType(resource.resourceType())
                            .setResourceName(resource.resourceName())
                            .setErrorCode(error.error().code())
                            .setErrorMessage(error.message()));
        }
        return new ControllerResult<>(request.validateOnly() ? List.of() : records, response);
    }

    ControllerResult<AlterConfigsResponseData> legacyAlterConfigs(
            MetadataImage image, AlterConfigsRequestData request) {
        AlterConfigsResponseData response = new AlterConfigsResponseData();
        List<MetadataRecordAndVersion> records = new ArrayList<>();
        Set<String> repeated = repeated(request.resources().stream()
                .map(r -> r.resourceType() + ":" + r.resourceName())
                .toList());
        for (AlterConfigsRequestData.AlterConfigsResource resource : request.resources()) {
            ApiError error = ApiError.NONE;
            try {
                if (repeated.contains(resource.resourceType() + ":" + resource.resourceName())) {
                    throw new InvalidRequestException("Each resource must appear at most once.");
                }
                checkKeys(resource.configs().stream()
                        .map(AlterConfigsRequestData.AlterableConfig::name)
                        .toList());
                checkNulls(resource.configs().stream()
                        .filter(c -> c.value() == null)
                        .map(AlterConfigsRequestData.AlterableConfig::name)
                        .toList());
                Target target = target(image, resource.resourceType(), resource.resourceName());
                Map<String, String> proposed = new LinkedHashMap<>();
                resource.configs().forEach(config -> proposed.put(config.name(), config.value()));
                records.addAll(change(image, target, proposed));
            } catch (ApiException e) {
                error = ApiError.fromThrowable(e);
            }
            response.responses()
                    .add(new AlterConfigsResponseData.AlterConfigsResourceResponse()
                            .setResourceType(resource.resourceType())
                            .setResourceName(resource.resourceName())
                            .setErrorCode(error.error().code())
                            .setErrorMessage(error.message()));
        }
        return new ControllerResult<>(request.validateOnly() ? List.of() : records, response);
    }

    /**
     * A resource whose configs change.
     *
     * @param type    its type
     * @param name    its name
     * @param current its configs now
     * @param keys    its config keys, by name
     */
    private record Target(
            ConfigResource.Type type,
            String name,
            Map<String, String> current,
            Function<String, Optional<ConfigKey>> keys) {}

    /** The resource, after Kafka's checks of its name, with its configs now. */
    private Target target(MetadataImage image, byte resourceType, String name) {
        ConfigResource.Type type = ConfigResource.Type.forId(resourceType);
        switch (type) {
            case TOPIC -> {
                topics.checkTopic(image, name);
                return new Target(type, name, image.topicConfig(name), TopicConfigValidator::key);
            }
            case BROKER -> {
                ConfigurationValidator validator = validator(type);
                if (name.isEmpty()) {
                    return new Target(type, name, image.brokerConfigs(), validator::key);
                }
                int id;
                try {
                    id = Integer.parseInt(name);
                } catch (NumberFormatException e) {
                    throw new InvalidRequestException("Node id must be an integer, but it is: " + name);
                }
                if (id != nodeId) {
                    throw new InvalidRequestException(
                            "Unexpected broker id, expected " + nodeId + ", but received " + name);
                }
                return new Target(type, name, image.perBrokerConfig(id), validator::key);
            }
            case GROUP -> {
                ConfigurationValidator validator = validator(type);
                if (name.isEmpty()) {
                    throw new InvalidRequestException("Default group resources are not allowed.");
                }
                return new Target(type, name, image.groupConfig(name), validator::key);
            }
            default -> throw new InvalidRequestException("Krabka does not support configs of resource type " + type);
        }
    }

    private ConfigurationValidator validator(ConfigResource.Type type) {
        ConfigurationValidator validator = validators.get(type);
        if (validator == null) {
            throw new InvalidRequestException("Krabka does not support configs of resource type " + type);
        }
        return validator;
    }

    /** The records moving the resource to {@code proposed}, which must be valid. */
    private List<MetadataRecordAndVersion> change(MetadataImage image, Target target, Map<String, String> proposed) {
        Map<String, String> current = target.current();
        switch (target.type()) {
            case TOPIC -> topics.validate(current, proposed);
            case BROKER -> {
                checkMinIsrWithElr(image, target, proposed);
                validator(target.type()).validate(image, target.name(), proposed);
            }
            default -> validator(target.type()).validate(image, target.name(), proposed);
        }
        byte recordType = target.type().id();
        List<MetadataRecordAndVersion> records = new ArrayList<>();
        proposed.forEach((key, value) -> {
            if (!Objects.equals(current.get(key), value)) {
                records.add(record(recordType, target.name(), key, value));
            }
        });
        current.keySet().stream()
                .filter(key -> !proposed.containsKey(key))
                .sorted()
                .forEach(key -> records.add(record(recordType, target.name(), key, null)));
        return records;
    }

    // KIP-966: with eligible leader replicas, Kafka's controller keeps min.insync.replicas cluster-wide only.
    private static void checkMinIsrWithElr(MetadataImage image, Target target, Map<String, String> proposed) {
        String key = "min.insync.replicas";
        Short elr = image.features().get(Feature.ELIGIBLE_LEADER_REPLICAS_VERSION.featureName());
        if (elr == null || elr < 1 || Objects.equals(target.current().get(key), proposed.get(key))) {
            return;
        }
        if (!target.name().isEmpty()) {
            throw new InvalidConfigurationException(
                    "Broker-level min.insync.replicas cannot be altered while ELR is enabled.");
        }
        if (proposed.get(key) == null) {
            throw new InvalidConfigurationException(
                    "Cluster-level min.insync.replicas cannot be removed while ELR is enabled.");
        }
    }

    private static MetadataRecordAndVersion record(byte resourceType, String name, String key, String value) {
        return new MetadataRecordAndVersion(new ConfigRecord(resourceType, name, key, value), (short) 0);
    }

    private static Set<String> repeated(List<String> names) {
        Set<String> seen = new HashSet<>();
        Set<String> repeated = new HashSet<>();
        names.forEach(name -> {
            if (!seen.add(name)) {
                repeated.add(name);
            }
        });
        return repeated;
    }

    private static void checkKeys(List<String> keys) {
        if (keys.size() != new HashSet<>(keys).size()) {
            throw new InvalidRequestException("Error due to duplicate config keys");
        }
    }

    private static void checkNulls(List<String> keys) {
        if (!keys.isEmpty()) {
            throw new InvalidRequestException("Null value not supported for : " + String.join(", ", keys));
        }
    }
}
