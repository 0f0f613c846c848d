package io.krabka.kernel.controller;

import io.krabka.kernel.log.config.LogConfig;
import io.krabka.kernel.log.config.TopicConfigDef;
import io.krabka.kernel.log.config.TopicConfigs;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.spi.plugin.ConfigException;
import io.krabka.spi.plugin.ConfigKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.internals.Topic;

/**
 * Checks a topic's configs as Kafka's controller does ({@code ControllerConfigurationValidator} and
 * {@code LogConfig.validate}): no null values, no unknown names, each value of its type and range, and the rules
 * between them. Failures are Kafka's {@link InvalidConfigurationException} (INVALID_CONFIG).
 */
final class TopicConfigValidator {

    private final Map<String, String> staticBrokerConfigs;
    private final boolean remoteLogStorageSystemEnabled;

    TopicConfigValidator(ControllerConfig config) {
        this.staticBrokerConfigs = config.staticBrokerConfigs();
        this.remoteLogStorageSystemEnabled = config.remoteLogStorageSystemEnabled();
    }

    /**
     * Checks that a topic resource names a topic that exists, as Kafka's controller checks it.
     *
     * @throws org.apache.kafka.common.errors.ApiException INVALID_REQUEST for the default topic resource (""),
     *                                                     INVALID_TOPIC_EXCEPTION for an invalid name,
     *                                                     UNKNOWN_TOPIC_OR_PARTITION for a topic that does not exist
     */
    void checkTopic(MetadataImage image, String name) {
        if (name.isEmpty()) {
            throw new InvalidRequestException("Default topic resources are not allowed.");
        }
        Topic.validate(name);
        if (image.topic(name).isEmpty()) {
            throw new UnknownTopicOrPartitionException("The topic '" + name + "' does not exist.");
        }
    }

    /** The topic config of this name, if there is one. */
    static Optional<ConfigKey> key(String name) {
        return TopicConfigs.find(name).map(TopicConfigDef::key);
    }

    /**
     * Checks the configs a topic will have.
     *
     * @param existing the topic's configs now; empty for a new topic
     * @param proposed all of its configs after the change
     */
    void validate(Map<String, String> existing, Map<String, String> proposed) {
        List<String> nulls = new ArrayList<>();
        proposed.forEach((name, value) -> {
            if (value == null) {
                nulls.add(name);
            }
        });
        if (!nulls.isEmpty()) {
            throw new InvalidConfigurationException(
                    "Null value not supported for topic configs: " + String.join(",", nulls));
        }
        for (String name : proposed.keySet()) {
            if (TopicConfigs.find(name).isEmpty() && !name.equals(TopicConfigs.INTERNAL_SEGMENT_BYTES_CONFIG)) {
                throw new InvalidConfigurationException("Unknown topic config name: " + name);
            }
        }
        try {
            if (existing.isEmpty()) {
                LogConfig.validateNew(staticBrokerConfigs, proposed, remoteLogStorageSystemEnabled);
            } else {
                LogConfig.validateChange(
                        LogConfig.fromProps(staticBrokerConfigs, existing),
                        staticBrokerConfigs,
                        proposed,
                        remoteLogStorageSystemEnabled);
            }
        } catch (ConfigException e) {
            throw new InvalidConfigurationException(e.getMessage());
        }
    }
}
