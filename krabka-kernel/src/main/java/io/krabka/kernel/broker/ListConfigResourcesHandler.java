package io.krabka.kernel.broker;

import io.krabka.kernel.controller.Controller;
import io.krabka.kernel.metadata.MetadataImage;
import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.message.ListConfigResourcesResponseData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ListConfigResourcesRequest;

/**
 * ListConfigResources (KIP-1142) as Kafka's {@code KafkaApis} answers it: of each type asked for (every type the
 * version knows when none is), the groups that have configs, this broker (as a broker and as its loggers) and the
 * topics; none of client metrics, which Krabka does not serve. A type the version does not know is UNSUPPORTED_VERSION.
 * {@code kafka-configs.sh} asks it whether a group it describes has configs. DESCRIBE_CONFIGS on the cluster is needed
 * (CLUSTER_AUTHORIZATION_FAILED).
 */
public final class ListConfigResourcesHandler implements ApiHandler {

    private final AuthHelper auth;
    private final int nodeId;
    private final Controller controller;

    /** A handler listing the resources of {@code controller}'s image, {@code nodeId} the one broker. */
    public ListConfigResourcesHandler(AuthHelper auth, int nodeId, Controller controller) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.nodeId = nodeId;
        this.controller = Objects.requireNonNull(controller, "controller");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.LIST_CONFIG_RESOURCES;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        auth.authorizeClusterOperation(request, AclOperation.DESCRIBE_CONFIGS);
        ListConfigResourcesRequest body = (ListConfigResourcesRequest) request.body();
        Set<Byte> supported = body.supportedResourceTypes();
        List<Byte> types = body.data().resourceTypes().isEmpty()
                ? List.copyOf(supported)
                : body.data().resourceTypes();
        ListConfigResourcesResponseData response = new ListConfigResourcesResponseData().setThrottleTimeMs(0);
        if (!supported.containsAll(types)) {
            return CompletableFuture.completedFuture(
                    Response.send(response.setErrorCode(Errors.UNSUPPORTED_VERSION.code())));
        }
        MetadataImage image = controller.image();
        List<ListConfigResourcesResponseData.ConfigResource> resources = new ArrayList<>();
        if (types.contains(ConfigResource.Type.GROUP.id())) {
            image.groupConfigs().keySet().forEach(group -> resources.add(resource(group, ConfigResource.Type.GROUP)));
        }
        for (ConfigResource.Type broker : List.of(ConfigResource.Type.BROKER_LOGGER, ConfigResource.Type.BROKER)) {
            if (types.contains(broker.id())) {
                resources.add(resource(String.valueOf(nodeId), broker));
            }
        }
        if (types.contains(ConfigResource.Type.TOPIC.id())) {
            image.topics().keySet().forEach(topic -> resources.add(resource(topic, ConfigResource.Type.TOPIC)));
        }
        return CompletableFuture.completedFuture(Response.send(response.setConfigResources(resources)));
    }

    private static ListConfigResourcesResponseData.ConfigResource resource(String name, ConfigResource.Type type) {
        return new ListConfigResourcesResponseData.ConfigResource()
                .setResourceName(name)
                .setResourceType(type.id());
    }
}
