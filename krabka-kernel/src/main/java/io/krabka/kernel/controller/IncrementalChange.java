package io.krabka.kernel.controller;

import io.krabka.spi.plugin.ConfigKey;
import io.krabka.spi.plugin.ConfigType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import org.apache.kafka.clients.admin.AlterConfigOp.OpType;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.InvalidConfigurationException;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData.AlterableConfig;

/**
 * Kafka's IncrementalAlterConfigs operations on one key: SET, DELETE, and APPEND or SUBTRACT on a LIST config, from
 * its value or, unset, its default. A broker config is refused as Kafka's broker refuses it
 * ({@code ConfigAdminManager.prepareIncrementalConfigs}), a topic or group config as its controller does.
 */
final class IncrementalChange {

    /** The id of DELETE, the one operation without a value. */
    static final byte DELETE = OpType.DELETE.id();

    private IncrementalChange() {}

    /**
     * The key's value after the operation.
     *
     * @param value the key's value before it; null when unset
     * @param keys  the resource type's keys, by name
     * @param type  the resource type
     */
    static String apply(
            String key,
            String value,
            AlterableConfig config,
            Function<String, Optional<ConfigKey>> keys,
            ConfigResource.Type type) {
        OpType op = OpType.forId(config.configOperation());
        if (op == null) {
            throw new InvalidRequestException("Unknown config operation " + config.configOperation() + " for " + key);
        }
        return switch (op) {
            case SET -> config.value();
            case DELETE -> null;
            case APPEND, SUBTRACT -> {
                ConfigKey listKey = listKey(key, op, keys, type);
                List<String> parts = parts(value != null ? value : defaultText(listKey));
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

    private static ConfigKey listKey(
            String key, OpType op, Function<String, Optional<ConfigKey>> keys, ConfigResource.Type type) {
        Optional<ConfigKey> found = keys.apply(key);
        if (type == ConfigResource.Type.BROKER) {
            ConfigKey known = found.orElseThrow(() -> new InvalidConfigurationException("Unknown config name: " + key));
            if (known.type() != ConfigType.LIST) {
                throw new InvalidConfigurationException("Config value " + (op == OpType.APPEND ? "append" : "subtract")
                        + " is not allowed for config key: " + key);
            }
            return known;
        }
        return found.filter(known -> known.type() == ConfigType.LIST)
                .orElseThrow(() -> new InvalidConfigurationException(
                        "Can't " + op + " to key " + key + " because its type is not LIST."));
    }

    private static String defaultText(ConfigKey key) {
        return key.defaultValue()
                .map(value -> value instanceof List<?> list
                        ? String.join(",", list.stream().map(String::valueOf).toList())
                        : String.valueOf(value))
                .orElse("");
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
