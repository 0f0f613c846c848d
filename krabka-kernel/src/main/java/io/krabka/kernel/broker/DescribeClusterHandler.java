package io.krabka.kernel.broker;

import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.apache.kafka.clients.admin.EndpointType;
import org.apache.kafka.common.acl.AclOperation;
import org.apache.kafka.common.message.DescribeClusterRequestData;
import org.apache.kafka.common.message.DescribeClusterResponseData;
import org.apache.kafka.common.message.DescribeClusterResponseData.DescribeClusterBroker;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.DescribeClusterRequest;
import org.apache.kafka.common.resource.Resource;
import org.apache.kafka.common.resource.ResourceType;

/**
 * Answers DescribeCluster as Kafka's {@code AuthHelper.computeDescribeClusterResponse} does on a broker listener:
 * this broker, never fenced, as the only broker and the controller; a request for the controller endpoint type gets
 * MISMATCHED_ENDPOINT_TYPE, an unknown type UNSUPPORTED_ENDPOINT_TYPE, with Kafka's messages. Anyone may ask; the
 * cluster's authorized operations, when asked for, need DESCRIBE on the cluster (0 otherwise).
 */
public final class DescribeClusterHandler implements ApiHandler {

    private final AuthHelper auth;
    private final Function<String, BrokerIdentity> identity;

    /**
     * A handler describing this broker.
     *
     * @param identity who this broker is, read per request: its advertised port is known once it listens
     */
    public DescribeClusterHandler(AuthHelper auth, Function<String, BrokerIdentity> identity) {
        this.auth = Objects.requireNonNull(auth, "auth");
        this.identity = Objects.requireNonNull(identity, "identity");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.DESCRIBE_CLUSTER;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        DescribeClusterRequestData data = ((DescribeClusterRequest) request.body()).data();
        return CompletableFuture.completedFuture(Response.send(describe(request, data)));
    }

    private DescribeClusterResponseData describe(Request request, DescribeClusterRequestData data) {
        EndpointType requested = EndpointType.fromId(data.endpointType());
        if (requested == null || requested == EndpointType.UNKNOWN) {
            return new DescribeClusterResponseData()
                    .setErrorCode(Errors.UNSUPPORTED_ENDPOINT_TYPE.code())
                    .setErrorMessage("Unsupported endpoint type " + data.endpointType());
        }
        if (requested != EndpointType.BROKER) {
            return new DescribeClusterResponseData()
                    .setErrorCode(Errors.MISMATCHED_ENDPOINT_TYPE.code())
                    .setErrorMessage("The request was sent to an endpoint of type " + EndpointType.BROKER
                            + ", but we wanted an endpoint of type " + requested);
        }
        BrokerIdentity node = identity.apply(request.listenerName());
        DescribeClusterResponseData response = new DescribeClusterResponseData()
                .setThrottleTimeMs(0)
                .setClusterId(node.clusterId())
                .setControllerId(node.nodeId())
                .setEndpointType(EndpointType.BROKER.id());
        if (data.includeClusterAuthorizedOperations()) {
            response.setClusterAuthorizedOperations(
                    auth.authorizeCluster(request, AclOperation.DESCRIBE)
                            ? auth.authorizedOperations(request, ResourceType.CLUSTER, Resource.CLUSTER_NAME)
                            : 0);
        }
        response.brokers()
                .add(new DescribeClusterBroker()
                        .setBrokerId(node.nodeId())
                        .setHost(node.host())
                        .setPort(node.port())
                        .setRack(node.rack().orElse(null))
                        .setIsFenced(false));
        return response;
    }
}
