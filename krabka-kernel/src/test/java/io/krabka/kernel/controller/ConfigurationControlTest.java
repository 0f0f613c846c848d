package io.krabka.kernel.controller;

import static io.krabka.kernel.controller.ConfigRequests.legacy;
import static io.krabka.kernel.controller.ConfigRequests.op;
import static io.krabka.kernel.controller.ConfigRequests.resource;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.krabka.kernel.broker.BrokerConfig;
import io.krabka.kernel.broker.DynamicBrokerConfig;
import io.krabka.kernel.group.GroupConfigDefaults;
import io.krabka.kernel.group.GroupConfigs;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.message.AlterConfigsRequestData;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData;
import org.apache.kafka.common.message.IncrementalAlterConfigsRequestData.AlterConfigsResource;
import org.apache.kafka.common.message.IncrementalAlterConfigsResponseData.AlterConfigsResourceResponse;
import org.apache.kafka.common.protocol.Errors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Broker and group resources through the controller, with the broker's own checks registered as the broker
 * registers them: Kafka's refusals of the request's shape (a resource twice, a key twice, a null value), of the
 * resource (another broker, a default group), of the operation, and its rule for {@code min.insync.replicas} under
 * eligible leader replicas; what passes is recorded per resource, and the legacy AlterConfigs replaces a broker
 * resource's configs whole.
 */
class ConfigurationControlTest {

    private static final byte BROKER = ConfigResource.Type.BROKER.id();
    private static final byte GROUP = ConfigResource.Type.GROUP.id();

    @TempDir
    Path dir;

    private Controllers controllers;

    @BeforeEach
    void start() throws Exception {
        controllers = Controllers.formatAndStart(dir, Map.of());
        QuorumController controller = controllers.controller();
        controller.registerConfigurationValidator(
                ConfigResource.Type.BROKER,
                new DynamicBrokerConfig(BrokerConfig.fromProps(Map.of(
                        "node.id", "1",
                        "process.roles", "broker,controller",
                        "log.dirs", dir.toString()))));
        controller.registerConfigurationValidator(
                ConfigResource.Type.GROUP, new GroupConfigs(GroupConfigDefaults.fromProps(Map.of())));
    }

    @AfterEach
    void stop() throws Exception {
        controllers.close();
    }

    @Test
    void refusalsOfTheRequestAndTheResourceAreKafkas() throws Exception {
        Map<String, String> answers = alter(
                resource(BROKER, "", op("message.max.bytes", "2000000", 0)),
                resource(BROKER, "", op("log.retention.ms", "1", 0)),
                resource(BROKER, "1", op("log.retention.ms", "1", 0), op("log.retention.ms", "2", 0)),
                resource(BROKER, "2", op("log.retention.ms", "1", 0)),
                resource(BROKER, "one", op("log.retention.ms", "1", 0)),
                resource(GROUP, "", op("consumer.session.timeout.ms", "50000", 0)),
                resource(GROUP, "payments", op("consumer.session.timeout.ms", null, 0)),
                resource(GROUP, "audits", op("consumer.session.timeout.ms", "1", 2)));
        assertEquals(
                Map.of(
                        "4:",
                        "INVALID_REQUEST: Each resource must appear at most once.",
                        "4:1",
                        "INVALID_REQUEST: Error due to duplicate config keys",
                        "4:2",
                        "INVALID_REQUEST: Unexpected broker id, expected 1, but received 2",
                        "4:one",
                        "INVALID_REQUEST: Node id must be an integer, but it is: one",
                        "32:",
                        "INVALID_REQUEST: Default group resources are not allowed.",
                        "32:payments",
                        "INVALID_REQUEST: Null value not supported for : consumer.session.timeout.ms",
                        "32:audits",
                        "INVALID_CONFIG: Can't APPEND to key consumer.session.timeout.ms because its type is not LIST."),
                answers);
        assertEquals(
                Map.of(
                        "4:1",
                        "INVALID_CONFIG: Config value append is not allowed for config key: message.max.bytes",
                        "4:",
                        "INVALID_CONFIG: Unknown config name: colour"),
                alter(
                        resource(BROKER, "1", op("message.max.bytes", "1", 2)),
                        resource(BROKER, "", op("colour", "blue", 3))));
        assertEquals(
                Map.of("min.insync.replicas", "1"),
                controllers.controller().image().brokerConfigs(),
                "nothing recorded but the format's");
        assertEquals(Map.of(), controllers.controller().image().groupConfigs(), "nothing recorded");
    }

    @Test
    void appendAndSubtractWorkOnListKeysFromTheirDefault() throws Exception {
        assertEquals(
                Map.of("4:", "NONE: null", "32:payments", "NONE: null"),
                alter(
                        resource(BROKER, "", op("log.cleanup.policy", "compact", 2)),
                        resource(GROUP, "payments", op("streams.rack.aware.assignment.tags", "zone,rack", 2))));
        assertEquals(Map.of(), alterErrors(resource(BROKER, "", op("log.cleanup.policy", "delete", 3))));
        assertEquals(
                Map.of("log.cleanup.policy", "compact"),
                filter(controllers.controller().image().brokerConfigs(), "log.cleanup.policy"));
        assertEquals(
                Map.of("streams.rack.aware.assignment.tags", "zone,rack"),
                controllers.controller().image().groupConfig("payments"));
    }

    @Test
    void minInsyncReplicasStaysClusterWideUnderEligibleLeaderReplicas() throws Exception {
        assertEquals(
                Map.of(
                        "4:1",
                        "INVALID_CONFIG: Broker-level min.insync.replicas cannot be altered while ELR is enabled.",
                        "4:",
                        "INVALID_CONFIG: Cluster-level min.insync.replicas cannot be removed while ELR is enabled."),
                alter(
                        resource(BROKER, "1", op("min.insync.replicas", "2", 0)),
                        resource(BROKER, "", op("min.insync.replicas", null, 1))));
    }

    @Test
    void theLegacyAlterConfigsReplacesABrokerResourcesConfigsWhole() throws Exception {
        alter(resource(BROKER, "1", op("background.threads", "12", 0), op("log.retention.ms", "1000", 0)));
        AlterConfigsRequestData legacy = legacy(BROKER, "1", Map.of("log.retention.ms", "2000"));
        assertEquals(
                Errors.NONE.code(),
                controllers
                        .controller()
                        .legacyAlterConfigs(legacy)
                        .get()
                        .responses()
                        .getFirst()
                        .errorCode());
        assertEquals(
                Map.of("log.retention.ms", "2000"),
                controllers.controller().image().perBrokerConfig(1));
    }

    private Map<String, String> alter(AlterConfigsResource... resources) throws Exception {
        IncrementalAlterConfigsRequestData request = new IncrementalAlterConfigsRequestData();
        for (AlterConfigsResource resource : resources) {
            request.resources().add(resource);
        }
        Map<String, String> answers = new LinkedHashMap<>();
        for (AlterConfigsResourceResponse response :
                controllers.controller().incrementalAlterConfigs(request).get().responses()) {
            answers.put(
                    response.resourceType() + ":" + response.resourceName(),
                    Errors.forCode(response.errorCode()).name() + ": " + response.errorMessage());
        }
        return answers;
    }

    private Map<String, String> alterErrors(AlterConfigsResource resource) throws Exception {
        Map<String, String> errors = new LinkedHashMap<>(alter(resource));
        errors.values().removeIf(answer -> answer.startsWith("NONE"));
        return errors;
    }

    private static Map<String, String> filter(Map<String, String> configs, String key) {
        return configs.containsKey(key) ? Map.of(key, configs.get(key)) : Map.of();
    }
}
