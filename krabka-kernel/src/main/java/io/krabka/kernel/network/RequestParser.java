package io.krabka.kernel.network;

import java.nio.ByteBuffer;
import org.apache.kafka.common.errors.InvalidRequestException;
import org.apache.kafka.common.message.ApiVersionsRequestData;
import org.apache.kafka.common.protocol.ApiKeys;
import org.apache.kafka.common.protocol.ByteBufferAccessor;
import org.apache.kafka.common.requests.AbstractRequest;
import org.apache.kafka.common.requests.ApiVersionsRequest;
import org.apache.kafka.common.requests.RequestHeader;
import org.apache.kafka.common.security.auth.KafkaPrincipal;

/**
 * Reads a request frame as Kafka's {@code SocketServer} and {@code RequestContext} do. A request Kafka would
 * close the connection for (a header that does not parse, an API or version not enabled, a body that does not
 * parse) throws {@link InvalidRequestException}; bytes after the body are ignored, as Kafka ignores them.
 */
final class RequestParser {

    private final ApiVersionsTable apiVersions;

    RequestParser(ApiVersionsTable apiVersions) {
        this.apiVersions = apiVersions;
    }

    /**
     * Parses a frame's bytes (header and body, without the size).
     *
     * @throws InvalidRequestException if Kafka would close the connection for it
     */
    Request parse(ByteBuffer frame, ConnectionInfo connection) {
        int size = frame.remaining();
        RequestHeader header = RequestHeader.parse(frame);
        ApiKeys apiKey = header.apiKey();
        short version = header.apiVersion();
        if (!apiVersions.isEnabled(apiKey, version)) {
            throw new InvalidRequestException(
                    "Received request api key " + apiKey + " with version " + version + " which is not enabled");
        }
        return new Request(header, body(header, frame, connection), connection, size, KafkaPrincipal.ANONYMOUS);
    }

    private static AbstractRequest body(RequestHeader header, ByteBuffer frame, ConnectionInfo connection) {
        ApiKeys apiKey = header.apiKey();
        short version = header.apiVersion();
        if (apiKey == ApiKeys.API_VERSIONS && !apiKey.isVersionSupported(version)) {
            // A client newer than the broker: answered at v0 with UNSUPPORTED_VERSION, the body unread.
            return new ApiVersionsRequest(new ApiVersionsRequestData(), (short) 0, version);
        }
        try {
            return AbstractRequest.parseRequest(apiKey, version, new ByteBufferAccessor(frame)).request;
        } catch (RuntimeException e) {
            throw new InvalidRequestException(
                    "Error getting request for apiKey: " + apiKey + ", apiVersion: " + version + ", connectionId: "
                            + connection.connectionId(),
                    e);
        }
    }
}
