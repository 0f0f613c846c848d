package io.krabka.kernel.broker;

import io.krabka.kernel.network.ApiHandler;
import io.krabka.kernel.network.ApiVersionsTable;
import io.krabka.kernel.network.Request;
import io.krabka.kernel.network.Response;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.Errors;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.ApiVersionsResponse;

/**
 * Answers ApiVersions as Kafka's {@code KafkaApis.handleApiVersionsRequest}: a version this broker does not know
 * gets UNSUPPORTED_VERSION at v0 with the ApiVersions range alone, so the client retries; invalid client software
 * names get INVALID_REQUEST; a v5 client that names another cluster or node gets REBOOTSTRAP_REQUIRED; otherwise the
 * table of the handlers registered and the feature levels, never throttled.
 */
public final class ApiVersionsHandler implements ApiHandler {

    private final ApiVersionsTable apiVersions;
    private final String clusterId;
    private final int nodeId;
    private final Supplier<ApiFeatures> features;

    /**
     * A handler answering with this table.
     *
     * @param apiVersions the APIs enabled (from {@code RequestDispatcher.create})
     * @param clusterId   this cluster's id, as Metadata responses report it
     * @param nodeId      this broker's node id
     * @param features    the feature levels at the time of each request
     */
    public ApiVersionsHandler(
            ApiVersionsTable apiVersions, String clusterId, int nodeId, Supplier<ApiFeatures> features) {
        this.apiVersions = Objects.requireNonNull(apiVersions, "apiVersions");
        this.clusterId = Objects.requireNonNull(clusterId, "clusterId");
        this.nodeId = nodeId;
        this.features = Objects.requireNonNull(features, "features");
    }

    @Override
    public ApiKeys apiKey() {
        return ApiKeys.API_VERSIONS;
    }

    @Override
    public CompletableFuture<Response> handle(Request request) {
        return CompletableFuture.completedFuture(
                Response.send(respond((ApiVersionsRequest) request.body()).data()));
    }

    private ApiVersionsResponse respond(ApiVersionsRequest request) {
        if (request.hasUnsupportedRequestVersion()) {
            return request.getErrorResponse(0, Errors.UNSUPPORTED_VERSION.exception());
        }
        if (!request.isValid()) {
            return request.getErrorResponse(0, Errors.INVALID_REQUEST.exception());
        }
        if (namesAnotherBroker(request.version(), request.data())) {
            return request.getErrorResponse(0, Errors.REBOOTSTRAP_REQUIRED.exception());
        }
        ApiFeatures levels = features.get();
        return new ApiVersionsResponse.Builder()
                .setThrottleTimeMs(0)
                .setApiVersions(apiVersions.toApiVersions())
                .setSupportedFeatures(levels.supportedFeatures())
                .setFinalizedFeatures(levels.finalized())
                .setFinalizedFeaturesEpoch(levels.finalizedEpoch())
                .setZkMigrationEnabled(false)
                .setAlterFeatureLevel0(request.version() < 4)
                .build();
    }

    /** KIP-1242: a v5 client that knows its cluster checks it reached a broker of it, the node it meant. */
    private boolean namesAnotherBroker(short version, ApiVersionsRequestData data) {
        return version >= 5
                && data.clusterId() != null
                && (!data.clusterId().equals(clusterId) || data.nodeId() != nodeId);
    }
}
