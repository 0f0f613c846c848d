package io.krabka.kernel.controller;

import io.krabka.kernel.log.config.TopicConfigDef;
import io.krabka.kernel.log.config.TopicConfigs;
import io.krabka.kernel.metadata.ConfigRecord;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.metadata.MetadataRecordAndVersion;
import io.krabka.spi.plugin.ConfigType;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.clients.admin.AlterConfigOp.OpType;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.message.AlterConfigsRequestData;
import org.apache.kafka.common.message.AlterConfigsResponseData;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData.AlterConfigsResource;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData.AlterableConfig;
import org.apache.kafka.common.message.IncrementalAlterConfigsResponseData;
import org.apache.kafka.common.message.IncrementalAlterConfigsResponseData.AlterConfigsResourceResponse;
import org.apache.kafka.common.requests.ApiError;

/**
 * IncrementalAlterConfigs and (legacy) AlterConfigs as Kafka's {@code ConfigurationControlManager} decides them for
 * topics, with Kafka's errors and messages: a {@code ConfigRecord} per key whose value changes. Broker configs are
 * refused: Krabka applies no broker config dynamically yet, and accepting one it would not apply would be a lie.
 */
final class ConfigurationControl {

    /** The message of a refused broker config change. */
    static final String BROKER_CONFIGS_REFUSED = "Krabka does not update broker configs dynamically yet: set them in "
            + "server.properties and restart the broker.";

    private final TopicConfigValidator validator;

    ConfigurationControl(TopicConfigValidator validator) {
        this.validator = validator;
    }

    ControllerResult<IncrementalAlterConfigsResponseData> incrementalAlterConfigs(
            MetadataImage image, IncrementalAlterConfigsRequestData request) {
        IncrementalAlterConfigsResponseData response = new IncrementalAlterConfigsResponseData();
        List<MetadataRecordAndVersion> records = new ArrayList<>();
        for (AlterConfigsResource resource : request.resources()) {
            ApiError error = ApiError.NONE;
            try {
                Map<String, String> current = topicConfigs(image, resource.resourceType(), resource.resourceName());
                Map<String, String> proposed = new HashMap<>(current);
                Map<String, Integer> seen = new HashMap<>();
                for (AlterableConfig config : resource.configs()) {
                    if (seen.merge(config.name(), 1, Integer::sum) > 1) {
                        throw new InvalidRequestException("Error due to duplicate config keys");
                    }
                    proposed.compute(config.name(), (key, value) -> apply(key, value, config));
                }
                records.addAll(change(resource.resourceName(), current, proposed));
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
        for (AlterConfigsRequestData.AlterConfigsResource resource : request.resources()) {
            ApiError error = ApiError.NONE;
            try {
                Map<String, String> current = topicConfigs(image, resource.resourceType(), resource.resourceName());
                Map<String, String> proposed = new LinkedHashMap<>();
                resource.configs().forEach(config -> proposed.put(config.name(), config.value()));
                records.addAll(change(resource.resourceName(), current, proposed));
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

    /** The topic's configs now, after checking the resource is a topic that exists, as Kafka checks it. */
    private static Map<String, String> topicConfigs(MetadataImage image, byte resourceType, String name) {
        ConfigResource.Type type = ConfigResource.Type.forId(resourceType);
        if (type == ConfigResource.Type.BROKER) {
            throw new InvalidRequestException(BROKER_CONFIGS_REFUSED);
        }
        if (type != ConfigResource.Type.TOPIC) {
            throw new InvalidRequestException("Krabka does not support configs of resource type " + type);
        }
        if (name.isEmpty()) {
            throw new InvalidRequestException("Default topic resources are not allowed.");
        }
        Topic.validate(name);
        if (image.topic(name).isEmpty()) {
            throw new UnknownTopicOrPartitionException("The topic '" + name + "' does not exist.");
        }
        return image.topicConfig(name);
    }

    /** The records moving {@code current} to {@code proposed}, which must be valid. */
    private List<MetadataRecordAndVersion> change(
            String topic, Map<String, String> current, Map<String, String> proposed) {
        validator.validate(current, proposed);
        List<MetadataRecordAndVersion> records = new ArrayList<>();
        proposed.forEach((key, value) -> {
            if (!Objects.equals(current.get(key), value)) {
                records.add(record(topic, key, value));
            }
        });
        current.keySet().stream()
                .filter(key -> !proposed.containsKey(key))
                .sorted()
                .forEach(key -> records.add(record(topic, key, null)));
        return records;
    }

    private static MetadataRecordAndVersion record(String topic, String key, String value) {
        return new MetadataRecordAndVersion(new ConfigRecord(ConfigRecord.TOPIC, topic, key, value), (short) 0);
    }

    /** Kafka's operations: SET, DELETE, and APPEND or SUBTRACT on a LIST config. */
    private static String apply(String key, String value, AlterableConfig config) {
        OpType op = OpType.forId(config.configOperation());
        if (op == null) {
            throw new InvalidRequestException("Unknown config operation " + config.configOperation() + " for " + key);
        }
        return switch (op) {
            case SET -> config.value();
            case DELETE -> null;
            case APPEND, SUBTRACT -> {
                TopicConfigDef def = TopicConfigs.find(key)
                        .filter(found -> found.key().type() == ConfigType.LIST)
                        .orElseThrow(() -> new InvalidConfigurationException(
                                "Can't " + op + " to key " + key + " because its type is not LIST."));
                List<String> parts = parts(value == null ? def.toText(def.defaultValue()) : value);
                for (String item :
                        config.value() == null ? new String[0] : config.value().split(",")) {
                    if (op == OpType.APPEND && !parts.contains(item)) {
                        parts.add(item);
                    } else if (op == OpType.SUBTRACT) {
                        parts.remove(item);
                    }
                }
                yield String.join(",", parts);
            }
        };
    }

    private static List<String> parts(String value) {
        List<String> parts = new ArrayList<>();
        for (String part : value.split(",")) {
            if (!part.isEmpty()) {
                parts.add(part);
            }
        }
        return parts;
    }
}
