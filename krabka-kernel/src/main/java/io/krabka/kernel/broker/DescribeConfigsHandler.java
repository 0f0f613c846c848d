package io.krabka.kernel.broker;

import io.krabka.kernel.controller.Controller;
import io.krabka.kernel.controller.TopicConfigDescriber;
import io.krabka.kernel.controller.TopicConfigDescriber.DescribedConfig;
import io.krabka.kernel.controller.TopicConfigDescriber.Synonym;
import io.krabka.kernel.group.GroupConfigs;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import io.krabka.spi.plugin.ConfigType;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.errors.ApiException;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.internals.Topic;
import org.apache.kafka.common.message.DescribeConfigsRequestData;
import org.apache.kafka.common.message.DescribeConfigsRequestData.DescribeConfigsResource;
import org.apache.kafka.common.message.DescribeConfigsResponseData;
import org.apache.kafka.common.message.DescribeConfigsResponseData.DescribeConfigsResourceResult;
import org.apache.kafka.common.message.DescribeConfigsResponseData.DescribeConfigsResult;
import org.apache.kafka.common.message.DescribeConfigsResponseData.DescribeConfigsSynonym;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ApiError;
import org.apache.kafka.common.requests.DescribeConfigsRequest;
import org.apache.kafka.common.requests.DescribeConfigsResponse;
import org.apache.kafka.common.requests.DescribeConfigsResponse.ConfigSource;
import org.apache.kafka.common.resource.ResourceType;

/**
 * Answers DescribeConfigs as Kafka's {@code ConfigHelper.describeConfigs} does. A topic: every topic config with
 * its value, source and synonyms as Kafka resolves them (the topic's own value, this broker's dynamic configs, the
 * cluster's dynamic broker defaults, {@code server.properties}, the broker keys' defaults), type, documentation, never
 * sensitive or read-only; UNKNOWN_TOPIC_OR_PARTITION for a topic that does not exist, INVALID_TOPIC_EXCEPTION for an
 * invalid name. This broker ({@code node.id}): every key it reads ({@link BrokerConfigDescriber}); the cluster default
 * broker resource (""): the dynamic cluster configs. A group: Kafka's group configs ({@link GroupConfigs}). Other
 * broker ids, an empty group name and other resource types get Kafka's INVALID_REQUEST. DESCRIBE_CONFIGS is needed on
 * the cluster (broker, logger, client-metrics resources), the topic or the group; a refused resource is answered
 * CLUSTER_, TOPIC_ or GROUP_AUTHORIZATION_FAILED after the others, as Kafka's.
 */
public final class DescribeConfigsHandler implements ApiHandler {

    /**
     * The handler's settings.
     *
     * @param nodeId              {@code node.id}: the broker resource this broker describes
     * @param staticBrokerConfigs the broker's {@code server.properties}
     */
    public record Config(int nodeId, Map<String, String> staticBrokerConfigs) {
        /** Copies the configs. */
        public Config {
            staticBrokerConfigs = Map.copyOf(staticBrokerConfigs);
        }
    }

    private final AuthHelper auth;
    private final Config config;
    private final Controller controller;
    private final TopicConfigDescriber topics;
    private final BrokerConfigDescriber brokers;
    private final GroupConfigs groups;

    /** A handler describing the configs of {@code controller}'s image, the groups' with {@code groups}. */
    public DescribeConfigsHandler(AuthHelper auth, Config config, Controller controller, GroupConfigs groups) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.config = Objects.requireNonNull(config, "config");
        this.controller = Objects.requireNonNull(controller, "controller");
        this.topics = new TopicConfigDescriber(config.staticBrokerConfigs());
        this.brokers = new BrokerConfigDescriber(config.staticBrokerConfigs());
        this.groups = Objects.requireNonNull(groups, "groups");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.DESCRIBE_CONFIGS;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        DescribeConfigsRequestData data = ((DescribeConfigsRequest) request.body()).data();
        MetadataImage image = controller.image();
        DescribeConfigsResponseData response = new DescribeConfigsResponseData().setThrottleTimeMs(0);
        // Kafka answers the resources the principal may not describe after the others.
        List<DescribeConfigsResult> refused = new ArrayList<>();
        for (DescribeConfigsResource resource : data.resources()) {
            Errors refusal = refusal(request, resource);
            if (refusal != null) {
                refused.add(new DescribeConfigsResult()
                        .setErrorCode(refusal.code())
                        .setErrorMessage(refusal.message())
                        .setConfigs(new ArrayList<>())
                        .setResourceName(resource.resourceName())
                        .setResourceType(resource.resourceType()));
                continue;
            }
            DescribeConfigsResult result;
            try {
                result = describe(image, resource, data.includeSynonyms(), data.includeDocumentation());
            } catch (ApiException e) {
                ApiError error = ApiError.fromThrowable(e);
                result = new DescribeConfigsResult()
                        .setErrorCode(error.error().code())
                        .setErrorMessage(error.message());
            }
            response.results()
                    .add(result.setResourceType(resource.resourceType()).setResourceName(resource.resourceName()));
        }
        response.results().addAll(refused);
        return CompletableFuture.completedFuture(Response.send(response));
    }

    // DESCRIBE_CONFIGS on the cluster for broker, logger and client-metrics resources, else on the topic or group.
    private Errors refusal(Request request, DescribeConfigsResource resource) {
        return switch (ConfigResource.Type.forId(resource.resourceType())) {
            case BROKER, BROKER_LOGGER, CLIENT_METRICS ->
                auth.authorizeCluster(request, AclOperation.DESCRIBE_CONFIGS)
                        ? null
                        : Errors.CLUSTER_AUTHORIZATION_FAILED;
            case TOPIC ->
                auth.authorize(request, AclOperation.DESCRIBE_CONFIGS, ResourceType.TOPIC, resource.resourceName())
                        ? null
                        : Errors.TOPIC_AUTHORIZATION_FAILED;
            case GROUP ->
                auth.authorize(request, AclOperation.DESCRIBE_CONFIGS, ResourceType.GROUP, resource.resourceName())
                        ? null
                        : Errors.GROUP_AUTHORIZATION_FAILED;
            default -> null;
        };
    }

    private DescribeConfigsResult describe(
            MetadataImage image,
            DescribeConfigsResource resource,
            boolean includeSynonyms,
            boolean includeDocumentation) {
        ConfigResource.Type type = ConfigResource.Type.forId(resource.resourceType());
        String name = resource.resourceName();
        DescribeConfigsResult result = new DescribeConfigsResult().setErrorCode(Errors.NONE.code());
        switch (type) {
            case TOPIC -> {
                Topic.validate(name);
                if (image.topic(name).isEmpty()) {
                    // As Kafka: the code alone, the message left at the schema's default.
                    return result.setErrorCode(Errors.UNKNOWN_TOPIC_OR_PARTITION.code());
                }
                for (DescribedConfig entry : topics.describe(
                        image.topicConfig(name), image.perBrokerConfig(config.nodeId()), image.brokerConfigs())) {
                    if (wanted(resource, entry.def().name())) {
                        result.configs()
                                .add(entry(
                                        entry.def().name(),
                                        entry.value(),
                                        entry.source(),
                                        entry.synonyms(),
                                        entry.def().key().type(),
                                        false,
                                        false,
                                        entry.def().key().documentation(),
                                        includeSynonyms,
                                        includeDocumentation));
                    }
                }
            }
            case BROKER -> {
                List<BrokerConfigDescriber.Entry> entries;
                if (name.isEmpty()) {
                    entries = brokers.describeDefault(image.brokerConfigs());
                } else if (name.equals(String.valueOf(config.nodeId()))) {
                    entries = brokers.describe(image.perBrokerConfig(config.nodeId()), image.brokerConfigs());
                } else {
                    throw new InvalidRequestException("Unexpected broker id, expected " + config.nodeId()
                            + " or empty string, but received " + name);
                }
                for (BrokerConfigDescriber.Entry entry : entries) {
                    if (wanted(resource, entry.name())) {
                        result.configs()
                                .add(entry(
                                        entry.name(),
                                        entry.sensitive() ? null : entry.value(),
                                        entry.source(),
                                        entry.sensitive()
                                                ? entry.synonyms().stream()
                                                        .map(s -> new Synonym(s.name(), null, s.source()))
                                                        .toList()
                                                : entry.synonyms(),
                                        entry.type(),
                                        entry.sensitive(),
                                        entry.readOnly(),
                                        entry.documentation(),
                                        includeSynonyms,
                                        includeDocumentation));
                    }
                }
            }
            case GROUP -> {
                if (name.isEmpty()) {
                    throw new InvalidRequestException("Group name must not be empty");
                }
                for (GroupConfigs.Entry entry : groups.describe(image.groupConfig(name))) {
                    if (wanted(resource, entry.name())) {
                        result.configs()
                                .add(entry(
                                        entry.name(),
                                        entry.value(),
                                        entry.source(),
                                        entry.synonyms(),
                                        entry.type(),
                                        false,
                                        false,
                                        entry.documentation(),
                                        includeSynonyms,
                                        includeDocumentation));
                    }
                }
            }
            default -> throw new InvalidRequestException("Unsupported resource type: " + type);
        }
        return result;
    }

    private static DescribeConfigsResourceResult entry(
            String name,
            String value,
            ConfigSource source,
            List<Synonym> synonyms,
            ConfigType type,
            boolean sensitive,
            boolean readOnly,
            String documentation,
            boolean includeSynonyms,
            boolean includeDocumentation) {
        return new DescribeConfigsResourceResult()
                .setName(name)
                .setValue(value)
                .setReadOnly(readOnly)
                .setConfigSource(source.id())
                .setIsSensitive(sensitive)
                .setSynonyms(includeSynonyms ? synonyms(synonyms) : List.of())
                .setConfigType(
                        type == null
                                ? DescribeConfigsResponse.ConfigType.UNKNOWN.id()
                                : DescribeConfigsResponse.ConfigType.valueOf(type.name())
                                        .id())
                .setDocumentation(includeDocumentation ? documentation : null);
    }

    private static boolean wanted(DescribeConfigsResource resource, String key) {
        return resource.configurationKeys() == null
                || resource.configurationKeys().contains(key);
    }

    private static List<DescribeConfigsSynonym> synonyms(List<Synonym> synonyms) {
        return synonyms.stream()
                .map(synonym -> new DescribeConfigsSynonym()
                        .setName(synonym.name())
                        .setValue(synonym.value())
                        .setSource(synonym.source().id()))
                .toList();
    }
}
