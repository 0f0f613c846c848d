package io.krabka.kernel.controller;

import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.spi.plugin.ConfigKey;
import java.util.Map;
import java.util.Optional;

/**
 * The configs of a resource type that a part of the broker above the controller defines (the broker's own dynamic
 * configs, a group's configs): their keys, for APPEND and SUBTRACT, and the checks the controller makes of each
 * change before it records it, as Kafka's broker and controller make them between them.
 */
public interface ConfigurationValidator {

    /** The key of this name, if this resource type has one. */
    Optional<ConfigKey> key(String name);

    /**
     * Checks a resource's configs after a change.
     *
     * @param image        the metadata the change applies to
     * @param resourceName the resource: a group id; "" for the cluster's broker default, else a broker id
     * @param proposed     every config the resource will have
     * @throws org.apache.kafka.common.errors.ApiException with Kafka's error and message, if the change is refused
     */
    void validate(MetadataImage image, String resourceName, Map<String, String> proposed);
}
