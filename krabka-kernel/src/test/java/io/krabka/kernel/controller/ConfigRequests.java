package io.krabka.kernel.controller;

import java.util.Map;
import org.apache.kafka.common.message.AlterConfigsRequestData;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData.AlterConfigsResource;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData.AlterableConfig;

/** IncrementalAlterConfigs and AlterConfigs requests, as the controller's tests write them. */
final class ConfigRequests {

    private ConfigRequests() {}

    /** A resource of {@code type} (Kafka's id) and {@code name} with these changes. */
    static AlterConfigsResource resource(byte type, String name, AlterableConfig... configs) {
        AlterConfigsResource resource =
                new AlterConfigsResource().setResourceType(type).setResourceName(name);
        for (AlterableConfig config : configs) {
            resource.configs().add(config);
        }
        return resource;
    }

    /** A legacy AlterConfigs request giving one resource the whole config set {@code configs}. */
    static AlterConfigsRequestData legacy(byte type, String name, Map<String, String> configs) {
        AlterConfigsRequestData.AlterConfigsResource resource = new AlterConfigsRequestData.AlterConfigsResource()
                .setResourceType(type)
                .setResourceName(name);
        configs.forEach((key, value) -> resource.configs()
                .add(new AlterConfigsRequestData.AlterableConfig().setName(key).setValue(value)));
        AlterConfigsRequestData request = new AlterConfigsRequestData();
        request.resources().add(resource);
        return request;
    }

    /** A change of one key: {@code op} is Kafka's id (0 SET, 1 DELETE, 2 APPEND, 3 SUBTRACT). */
    static AlterableConfig op(String name, String value, int op) {
        return new AlterableConfig().setName(name).setValue(value).setConfigOperation((byte) op);
    }
}
